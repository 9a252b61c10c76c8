/**
 * The edge bench's toolwright side: the 6-property echo as a decorated class with a
 * class-validator DTO, one class pair per tool (see `echo6-toolwright-tool.ts`), compiled and served by
 * toolwright over stdio, or over streamable HTTP on 127.0.0.1 with the argument `http` (printing
 * `url <url>` on stderr). It reports its CPU time and peak RSS on SIGUSR2 (see `cpu-report.ts`).
 */
import { compile, serveHttp, serveStdio } from 'toolwright';
import { serverArgs, toolName } from './echo6-args.js';
import { echo6Class } from './echo6-toolwright-tool.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const { transport, toolCount } = serverArgs();
const tools = compile(Array.from({ length: toolCount }, (_, index) => echo6Class(toolName(index))));
const served =
  transport === 'http'
    ? serveHttp({ name: 'toolwright-echo6', version: '1.0.0' }, tools).then(
        (handle) => void process.stderr.write(`url ${handle.url}\n`),
      )
    : serveStdio({ name: 'toolwright-echo6', version: '1.0.0' }, tools);
served.catch((error: unknown) => {
  process.stderr.write(`toolwright-echo6: ${String(error)}\n`);
  process.exit(1);
});
