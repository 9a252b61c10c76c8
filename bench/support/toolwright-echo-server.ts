/**
 * The benchmark's toolwright side: the `echo` tool of the conformance sample (a decorated class
 * with a class-validator DTO), compiled and served over stdio by toolwright.
 */
import { compile, serveStdio } from '../../src/index.js';
import { Echo } from '../../samples/conformance/echo-tool.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

serveStdio({ name: 'toolwright-echo', version: '1.0.0' }, compile([Echo])).catch((error: unknown) => {
  process.stderr.write(`toolwright-echo: ${String(error)}\n`);
  process.exit(1);
});
