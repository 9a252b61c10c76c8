/**
 * The edge bench's toolwright side: the 6-property echo as a decorated class with a
 * class-validator DTO, one class pair per tool (see `echo6-toolwright-tool.ts`), compiled and
 * served by toolwright (see `echo6-toolwright-serve.ts` for the transports). It reports its CPU
 * time and peak RSS on SIGUSR2 (see `cpu-report.ts`).
 */
import { compile } from 'toolwright';
import { serverArgs, toolName } from './echo6-args.js';
import { echo6Class } from './echo6-toolwright-tool.js';
import { serveEcho6 } from './echo6-toolwright-serve.js';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const { toolCount } = serverArgs();
serveEcho6('toolwright-echo6', compile(Array.from({ length: toolCount }, (_, index) => echo6Class(toolName(index)))));
