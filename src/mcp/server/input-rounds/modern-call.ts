import { ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { isJsonObject } from '../../../contract/index.js';
import type { HandlerExtra } from '../extra.js';
import { STALE_STATE_TEXT } from './errors.js';
import { ParkedRun, type Escalation, type RoundOutcome } from './parked-run.js';
import { ParkedRuns, type RunBinding } from './parked-runs.js';
import type { RequestCancellation } from './request-cancellation.js';
import { ProtocolError } from '../protocol-error.js';
import { INVALID_STATE_TEXT } from './errors.js';

/**
 * Answers one 2026-07-28 `tools/call` request. Without a `requestState` it starts the call as a
 * `ParkedRun` (`execute` runs it once; `inputResponses` it already carries answer the questions
 * with those keys up front); with one, it resumes the call parked under that state
 * with the request's `inputResponses`. A state that names no waiting call here (unknown, already
 * answered, abandoned, stopped, or parked for another connection, principal or tool) is answered
 * `{"content":[{"type":"text","text":"the call these answers belong to is no longer waiting for
 * them; call the tool again"}],"isError":true}`. A state of a form no toolwright process mints
 * (tampered with, or not from here) is a `-32602 Invalid or expired requestState` error, as the
 * SDK answers state that fails verification. With a relay (`InputRoundOptions.relay`), a state
 * minted by another node is relayed to that node on stateless HTTP and answered with its outcome
 * (see `RunRelay.forward`). A protocol error of the call (an unknown tool,
 * malformed params, a missing client capability) is thrown, so the SDK answers it as a JSON-RPC
 * error. `runKey` names what the call runs, in place of the tool's name (a `prompts/get` parks
 * its rendering as `prompt:<name>`, so a state minted for a tool never resumes a prompt).
 * `escalation` lets a new call continue as a task (`ctx.continueAsTask()`, see `ParkedRun`).
 * `cancellation`, when given, is how a new call learns that its request was cancelled, in place of
 * the request's signal (see `RequestCancellation`).
 */
export async function answerModernToolCall(
  runs: ParkedRuns,
  binding: RunBinding,
  params: unknown,
  extra: HandlerExtra,
  ctx: ServerContext,
  execute: (extra: HandlerExtra) => Promise<Record<string, unknown>>,
  runKey?: string,
  escalation?: Escalation,
  cancellation?: RequestCancellation,
): Promise<Record<string, unknown>> {
  const tool = runKey ?? (isJsonObject(params) && typeof params.name === 'string' ? params.name : '');
  const state = ctx.mcpReq.requestState();
  const responses = (ctx.mcpReq.inputResponses ?? {}) as Readonly<Record<string, unknown>>;
  if (typeof state !== 'string')
    return outcomeOf(
      await new ParkedRun(tool, runs, binding, extra, escalation).start(extra, execute, responses, cancellation),
    );
  if (!ParkedRuns.isWellFormed(state))
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, INVALID_STATE_TEXT, { reason: 'invalid_request_state' });
  const owner = ParkedRuns.nodeOf(state);
  if (
    runs.relay !== undefined &&
    binding.connection === undefined &&
    owner !== undefined &&
    owner !== runs.relay.nodeId
  ) {
    return runs.relay.forward(owner, { state, tool, principal: binding.principal, responses, extra });
  }
  const parked = runs.take(state, binding, tool);
  if (parked === undefined) return { content: [{ type: 'text', text: STALE_STATE_TEXT }], isError: true };
  return outcomeOf(await parked.resume(extra, responses));
}

function outcomeOf(outcome: RoundOutcome): Record<string, unknown> {
  if (outcome.kind === 'error') throw outcome.error;
  return outcome.result;
}
