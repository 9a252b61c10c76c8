import {
  factsOf,
  isFactual,
  isJsonObject,
  replayOf,
  type FactCall,
  type Json,
  type JsonObject,
  type ToolFacts,
} from '../../contract/index.js';
import { mcpCallContextOf } from './call-context.js';
import { FACTS_METHOD } from './constants.js';
import { errorText } from '../../util/describe.js';
import type { HandlerExtra } from './extra.js';
import { handBuiltArgumentsProblem } from '../../runtime/internal.js';
import type { ServerState } from './state.js';
import { invalidParams } from './protocol-error.js';

/** One call in an `execution/facts` request. */
interface FactsQuestion {
  readonly name: string;
  readonly arguments: unknown;
}

/** A fact call as it crosses the wire: `args` and `text` left out when absent or empty. */
export interface WireFactCall {
  tool: string;
  args?: Json;
  text?: string;
}

/** One answer of `execution/facts`, in wire key order. */
export type FactsWireAnswer =
  | { facts: { calls: WireFactCall[] | null; rewrite?: JsonObject }; replay: 'safe' | 'unknown' }
  | { error: string; replay: 'safe' | 'unknown' }
  | { replay: 'safe' | 'unknown' };

/**
 * Answers `execution/facts` (`{"calls":[{"name","arguments"?}]}` → `{"results":[...]}`, one
 * answer per call, in order). Each answer is `{"facts":{"calls":[...]|null,"rewrite"?},
 * "replay"}`, `{"error":"...","replay"}` or, for a tool that claims no facts, `{"replay"}`;
 * `replay` is always there, `"safe"` or `"unknown"` (`keyed` is served as `unknown`: the
 * idempotency key does not cross). An unknown tool answers `{"error":"unknown tool \"x\"",
 * "replay":"unknown"}`; arguments that are not an object or fail a hand-built tool's schema
 * answer `{"error":"invalid arguments: ...","replay":"unknown"}` (a compiled tool's own facts
 * reject invalid arguments with the same kind of text). Missing arguments are `{}`. Answering
 * never runs `execute`; claims are asked concurrently, each with a context carrying the
 * session and the request's signal (call id `<request id>/<index>`). Malformed params are a
 * `-32602` error naming the problem.
 *
 * Decided, the same in both protocol eras: facts are answered only for arguments that pass the
 * tool's schema (the Go seed does not validate; toolwright does, since claims made about
 * arguments the tool would refuse describe a call that can never run), and a claim cannot ask
 * anyone (as the Go seed's facts context has no elicitor): `ctx.elicit` answers `cancel` and
 * `ctx.sample` rejects with `SamplingUnavailableError`. A facts request is not one of the
 * 2026-07-28 methods that may answer `input_required`, so asking could not work there anyway.
 */
export async function answerFacts(
  state: ServerState,
  params: unknown,
  extra: HandlerExtra,
): Promise<{ results: FactsWireAnswer[] }> {
  const questions = questionsOf(params);
  const results = await Promise.all(
    questions.map((question, index) => answerOne(state, question, extra, `${String(extra.requestId)}/${index}`)),
  );
  return { results };
}

function questionsOf(params: unknown): FactsQuestion[] {
  const calls = isJsonObject(params) ? params.calls : undefined;
  if (!Array.isArray(calls))
    throw invalidParams(`${FACTS_METHOD}: params.calls must be an array of {"name", "arguments"?}`);
  return calls.map((call, index) => {
    if (!isJsonObject(call) || typeof call.name !== 'string')
      throw invalidParams(`${FACTS_METHOD}: params.calls[${index}] must be an object with a string "name"`);
    return { name: call.name, arguments: call.arguments };
  });
}

async function answerOne(
  state: ServerState,
  question: FactsQuestion,
  extra: HandlerExtra,
  callId: string,
): Promise<FactsWireAnswer> {
  const served = state.tools.get(question.name);
  if (served === undefined) return { error: `unknown tool ${JSON.stringify(question.name)}`, replay: 'unknown' };
  const args = question.arguments ?? {};
  if (!isJsonObject(args))
    return { error: 'invalid arguments: the arguments must be a JSON object', replay: 'unknown' };
  const invalid = handBuiltArgumentsProblem(served.prepared, args);
  if (invalid !== undefined) return { error: invalid, replay: 'unknown' };
  const { ctx, finish } = mcpCallContextOf(
    state,
    extra,
    { id: callId, tool: served.prepared.name, args },
    extra.signal,
    false,
  );
  try {
    const replay = (await replayOf(served.prepared.tool, args, ctx)) === 'safe' ? 'safe' : 'unknown';
    if (!isFactual(served.prepared.tool)) return { replay };
    const answer = await factsOf(served.prepared.tool, args, ctx);
    if (!answer.claimed) return { replay };
    if ('error' in answer) return { error: errorText(answer.error), replay };
    return { facts: wireFactsOf(answer.facts), replay };
  } catch (err) {
    return { error: errorText(err), replay: 'unknown' };
  } finally {
    finish();
  }
}

function wireFactsOf(facts: ToolFacts): { calls: WireFactCall[] | null; rewrite?: JsonObject } {
  const calls = facts.calls === null || facts.calls === undefined ? null : facts.calls.map(wireFactCallOf);
  const wire: { calls: WireFactCall[] | null; rewrite?: JsonObject } = { calls };
  if (facts.rewrite !== undefined && facts.rewrite !== null) wire.rewrite = facts.rewrite;
  return wire;
}

function wireFactCallOf(call: FactCall): WireFactCall {
  const wire: WireFactCall = { tool: typeof call?.tool === 'string' ? call.tool : '' };
  if (call?.args !== undefined) wire.args = call.args;
  if (typeof call?.text === 'string' && call.text !== '') wire.text = call.text;
  return wire;
}
