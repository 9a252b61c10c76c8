/**
 * How the edge bench's toolwright servers serve their tools: over stdio, or over streamable HTTP
 * on 127.0.0.1 (`http`: sessions for 2025-era clients, the 2026-07-28 era per request;
 * `http-stateless`: no sessions), printing `url <url>` on stderr once listening. Over HTTP they
 * also serve `ask` (see `ASK_TOOL`), with the session, parking and concurrency caps raised so that
 * the memory rows can open hundreds of sessions and parked calls from one address.
 */
import { compile, serveHttp, serveStdio, type CallContext, type ContractTool } from 'toolwright';
import { ASK_TOOL, serverArgs } from './echo6-args.js';

/** The most sessions and parked calls the bench opens at once, with room to spare. */
const BENCH_CAP = 10_000;

/** The `ask` tool, hand-built: it elicits `{ ok }` and answers whether the user said yes. */
function askTool(): ContractTool {
  return {
    name: ASK_TOOL.name,
    description: ASK_TOOL.description,
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: async (_args: unknown, ctx: CallContext) => {
      const answer = await ctx.elicit({ message: ASK_TOOL.question, schema: ASK_TOOL.answerSchema, key: 'confirm' });
      return String(answer.action === 'accept' && answer.content?.ok === true);
    },
  };
}

/** Serves `tools` (compiled contract tools) as `process.argv` says; exits the process when serving fails. */
export function serveEcho6(label: string, tools: readonly ContractTool[]): void {
  const { transport } = serverArgs();
  const info = { name: label, version: '1.0.0' };
  const served =
    transport === 'stdio'
      ? serveStdio(info, tools)
      : serveHttp(info, [...tools, ...compile([askTool()])], {
          stateless: transport === 'http-stateless',
          maxSessions: BENCH_CAP,
          maxSessionsPerAddress: BENCH_CAP,
          inputRounds: { maxParkedPerClient: BENCH_CAP },
          // A parked call holds its scheduling slot until it is resumed.
          scheduling: { maxConcurrent: BENCH_CAP },
        }).then((handle) => void process.stderr.write(`url ${handle.url}\n`));
  served.catch((error: unknown) => {
    process.stderr.write(`${label}: ${String(error)}\n`);
    process.exit(1);
  });
}
