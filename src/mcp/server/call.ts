import type { CallToolResult } from '@modelcontextprotocol/server';
import { isJsonObject, resultOf, type ToolOutput, type ToolRecord } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { problemsText } from '../../compiler/validation/ajv.js';
import { mcpCallContextOf, type ContextServer } from './call-context.js';
import { RECORD_META_KEY } from './constants.js';
import { contentOf, outputProblemOf } from './content.js';
import { errorTextOf } from './error-text.js';
import type { HandlerExtra } from './extra.js';
import { wireRecordOf } from './record.js';
import { timeLimitOf } from './time-limit.js';
import { argumentsErrorOf, type ServedTool } from './served-tools.js';
import type { ServerState } from './state.js';
import { invalidParams } from './protocol-error.js';

/** The result MCP sends for a failed call: `isError` with the failure's text, nothing else. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Answers one `tools/call`. An unknown tool is a protocol error (`-32602`, `Unknown tool:
 * <name>`), as are a missing name or non-object arguments; missing arguments are `{}`. Every
 * other failure is an `isError` result whose one text block is the failure's message (see
 * `errorTextOf`): arguments that fail a hand-built tool's schema (`invalid arguments: /text:
 * must be string`), a throw or rejection of `execute` (a `ToolError`'s details never cross), an
 * output that is not a `ToolOutput`, and structured content that misses the output schema
 * (`structured content does not match the output schema: ...`). A record becomes
 * `_meta[RECORD_META_KEY]` (see `wireRecordOf`) and never fails the call: the one the tool
 * returned, else the last one it wrote with `ctx.writeRecord`; on a failure, the one the thrown
 * error carries (a `ToolError`'s, a permission denial's), else the last one written. A tool with
 * `timeoutMs` is answered `tool "<name>" timed out after <ms> ms` when the time passes (its
 * signal aborts; its late result is dropped), as the executor does. When the request is cancelled
 * the SDK sends no response at all, whatever this returns.
 */
export async function answerToolCall(server: ContextServer, state: ServerState, params: unknown, extra: HandlerExtra): Promise<CallToolResult> {
  // A request whose params._meta is malformed never gets here: the SDK's Protocol drops any
  // message its JSON-RPC schema refuses (and the transports answer it -32600 first).
  const given = (isJsonObject(params) ? params : {}) as { name?: unknown; arguments?: unknown };
  if (typeof given.name !== 'string') throw invalidParams(`tools/call: params.name must be a string, got ${kindOf(given.name)}`);
  const served = state.tools.get(given.name);
  if (served === undefined) throw invalidParams(`Unknown tool: ${given.name}`);
  const args = given.arguments ?? {};
  if (!isJsonObject(args)) throw invalidParams(`tools/call: params.arguments must be an object, got ${kindOf(args)}`);
  const invalid = argumentsErrorOf(served, args);
  if (invalid !== undefined) return errorResult(invalid);
  const limit = timeLimitOf(extra.signal, served.tool.name, served.tool.timeoutMs);
  const { ctx, finish, written } = mcpCallContextOf(server, state, extra, { id: String(extra.requestId), tool: served.tool.name, args }, limit.signal);
  let output: unknown;
  try {
    output = await limit.race(Promise.resolve(served.tool.execute(args, ctx)));
  } catch (err) {
    const failure = errorResult(errorTextOf(limit.expired() ?? err));
    const record = recordOfError(err) ?? written();
    if (record !== undefined) failure._meta = { [RECORD_META_KEY]: wireRecordOf(record) };
    return failure;
  } finally {
    limit.clear();
    finish();
  }
  const expired = limit.expired();
  if (expired !== undefined) return errorResult(expired.message);
  return resultFor(served, output, written());
}

/** The record a thrown error carries (a `ToolError`'s, a permission denial's), if any. */
function recordOfError(err: unknown): ToolRecord | undefined {
  const record = typeof err === 'object' && err !== null ? (err as { record?: unknown }).record : undefined;
  return typeof record === 'object' && record !== null ? (record as ToolRecord) : undefined;
}

/** Turns what `execute` returned into the MCP result, checking shape and structured content. */
function resultFor(served: ServedTool, output: unknown, written: ToolRecord | undefined): CallToolResult {
  const problem = outputProblemOf(output);
  if (problem !== undefined) return errorResult(`tool ${JSON.stringify(served.tool.name)} returned an invalid output: ${problem}`);
  const result = resultOf(output as ToolOutput);
  const isError = result.isError === true;
  const validate = served.validateOutput;
  if (validate !== undefined && !isError) {
    if (result.structuredContent === undefined) return errorResult('structured content does not match the output schema: the tool returned no structured content');
    if (!validate(result.structuredContent)) {
      return errorResult(`structured content does not match the output schema: ${problemsText(validate.errors)}`);
    }
  }
  const answer: CallToolResult = { ...contentOf(result) };
  if (isError) answer.isError = true;
  const record = result.record ?? written;
  if (record !== undefined) answer._meta = { [RECORD_META_KEY]: wireRecordOf(record) };
  return answer;
}
