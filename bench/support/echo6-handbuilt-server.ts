/**
 * The edge bench's toolwright side without decorators: the 6-property echo as hand-built
 * contract tools (a name, a JSON Schema and an `execute` function; see `echo6-args.ts`), served
 * by toolwright (see `echo6-toolwright-serve.ts` for the transports). It shows the edge's own
 * cost, with no class-validator DTO loaded. Reports CPU time and peak RSS on SIGUSR2 (see
 * `cpu-report.ts`).
 */
import { compile, type ContractTool } from 'toolwright';
import { DESCRIPTION, echo6, echo6Schema, serverArgs, toolName, type Echo6Input } from './echo6-args.js';
import { serveEcho6 } from './echo6-toolwright-serve.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const { toolCount } = serverArgs();
serveEcho6(
  'toolwright-echo6-handbuilt',
  compile(
    Array.from({ length: toolCount }, (_, index): ContractTool => ({
      name: toolName(index),
      description: DESCRIPTION,
      parameters: echo6Schema(),
      annotations: { readOnly: true, idempotent: true },
      execute: async (args) => echo6(args as unknown as Echo6Input),
    })),
  ),
);
