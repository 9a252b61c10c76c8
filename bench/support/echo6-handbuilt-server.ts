/**
 * The edge bench's toolwright side without decorators: the 6-property echo as hand-built
 * contract tools (a name, a JSON Schema and an `execute` function; see `echo6-args.ts`), served
 * by toolwright over stdio, or over streamable HTTP on 127.0.0.1 with the argument `http`
 * (printing `url <url>` on stderr). It shows the edge's own cost, with no class-validator DTO
 * loaded. Reports CPU time and peak RSS on SIGUSR2 (see `cpu-report.ts`).
 */
import { compile, serveHttp, serveStdio, type ContractTool } from 'toolwright';
import { DESCRIPTION, echo6, echo6Schema, serverArgs, toolName, type Echo6Input } from './echo6-args.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const { transport, toolCount } = serverArgs();
const tools = compile(
  Array.from({ length: toolCount }, (_, index): ContractTool => ({
    name: toolName(index),
    description: DESCRIPTION,
    parameters: echo6Schema(),
    annotations: { readOnly: true, idempotent: true },
    execute: async (args) => echo6(args as unknown as Echo6Input),
  })),
);
const served =
  transport === 'http'
    ? serveHttp({ name: 'toolwright-echo6-handbuilt', version: '1.0.0' }, tools).then(
        (handle) => void process.stderr.write(`url ${handle.url}\n`),
      )
    : serveStdio({ name: 'toolwright-echo6-handbuilt', version: '1.0.0' }, tools);
served.catch((error: unknown) => {
  process.stderr.write(`toolwright-echo6-handbuilt: ${String(error)}\n`);
  process.exit(1);
});
