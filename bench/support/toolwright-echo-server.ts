/**
 * The benchmark's toolwright side: the `echo` tool of the conformance sample (a decorated class
 * with a class-validator DTO), compiled and served over stdio by toolwright (over streamable HTTP
 * on 127.0.0.1 with the argument `http`, printing `url <url>` on stderr).
 */
import { compile, serveHttp, serveStdio } from 'toolwright';
import { Echo } from '../../samples/conformance/echo-tool.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const served =
  process.argv[2] === 'http'
    ? serveHttp({ name: 'toolwright-echo', version: '1.0.0' }, compile([Echo])).then(
        (handle) => void process.stderr.write(`url ${handle.url}\n`),
      )
    : serveStdio({ name: 'toolwright-echo', version: '1.0.0' }, compile([Echo]));
served.catch((error: unknown) => {
  process.stderr.write(`toolwright-echo: ${String(error)}\n`);
  process.exit(1);
});
