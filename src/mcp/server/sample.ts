import { SamplingUnavailableError, type SamplingRequest, type SamplingResult } from '../../contract/index.js';
import type { HandlerExtra } from './extra.js';

const REQUEST_FIELDS = ['messages', 'maxTokens', 'systemPrompt', 'temperature', 'stopSequences', 'modelPreferences', 'includeContext', 'metadata'] as const;

/**
 * Makes `ctx.sample` for one call: sends `sampling/createMessage` on the call's own request
 * stream with the request's MCP fields (messages, maxTokens, systemPrompt, temperature,
 * stopSequences, modelPreferences, includeContext, metadata; others are not sent) and resolves
 * `{role, content, model, stopReason?}`. Rejects with `SamplingUnavailableError` when the client
 * offered no `sampling` capability (nothing is sent), and with the client's error when it
 * refuses. Cancelling the call cancels the request.
 */
export function samplerOf(extra: HandlerExtra, signal: AbortSignal): (request: SamplingRequest) => Promise<SamplingResult> {
  return async (request) => {
    if (extra.clientCapabilities()?.sampling === undefined) throw new SamplingUnavailableError();
    if (typeof request !== 'object' || request === null) throw new TypeError('sampling: the request must be an object with "messages" and "maxTokens"');
    const params: Record<string, unknown> = {};
    for (const field of REQUEST_FIELDS) if (request[field] !== undefined) params[field] = request[field];
    const answer = (await extra.sendRequest({ method: 'sampling/createMessage', params }, { signal })) as { role: SamplingResult['role']; content: unknown; model: string; stopReason?: unknown };
    const result: { role: SamplingResult['role']; content: SamplingResult['content']; model: string; stopReason?: string } = {
      role: answer.role,
      content: answer.content as SamplingResult['content'],
      model: answer.model,
    };
    if (typeof answer.stopReason === 'string') result.stopReason = answer.stopReason;
    return result;
  };
}
