import { SamplingUnavailableError, type SamplingRequest, type SamplingResult } from '../../contract/index.js';
import { keyOf } from './elicit.js';
import type { HandlerExtra } from './extra.js';

const REQUEST_FIELDS = [
  'messages',
  'maxTokens',
  'systemPrompt',
  'temperature',
  'stopSequences',
  'modelPreferences',
  'includeContext',
  'metadata',
] as const;

/**
 * Makes `ctx.sample` for one call: a `sampling/createMessage` request with the request's MCP
 * fields (messages, maxTokens, systemPrompt, temperature, stopSequences, modelPreferences,
 * includeContext, metadata; others are not sent), resolving `{role, content, model,
 * stopReason?}`. In the 2025 era it is pushed on the call's own request stream and rejects with
 * `SamplingUnavailableError` when the client offered no `sampling` capability (nothing is sent);
 * in the 2026-07-28 era it rides the call's input round (see `ParkedRun`), where a request whose
 * capabilities do not offer sampling fails with the revision's `-32021` error. Rejects with the
 * client's error when it refuses. Cancelling the call cancels the request.
 * `signalOf` gives the call's signal; it is read only when a request is sent.
 */
export function samplerOf(
  extra: HandlerExtra,
  signalOf: () => AbortSignal,
): (request: SamplingRequest) => Promise<SamplingResult> {
  return async (request) => {
    // In the 2026-07-28 era the request goes into the call's input round, which answers a missing
    // capability with the revision's -32021 error.
    if (extra.era === 'legacy' && extra.clientCapabilities()?.sampling === undefined)
      throw new SamplingUnavailableError();
    if (typeof request !== 'object' || request === null)
      throw new TypeError('sampling: the request must be an object with "messages" and "maxTokens"');
    const params: Record<string, unknown> = {};
    for (const field of REQUEST_FIELDS) if (request[field] !== undefined) params[field] = request[field];
    const answer = (await extra.sendRequest(
      { method: 'sampling/createMessage', params, ...keyOf(request.key) },
      { signal: signalOf() },
    )) as { role: SamplingResult['role']; content: unknown; model: string; stopReason?: unknown };
    const result: {
      role: SamplingResult['role'];
      content: SamplingResult['content'];
      model: string;
      stopReason?: string;
    } = {
      role: answer.role,
      content: answer.content as SamplingResult['content'],
      model: answer.model,
    };
    if (typeof answer.stopReason === 'string') result.stopReason = answer.stopReason;
    return result;
  };
}
