import {
  InvalidOutputError,
  isJsonObject,
  MAX_COMPLETION_VALUES,
  type CompletionAnswer,
  type ContentPart,
  type PromptMessage,
  type PromptResult,
  type ResourceContent,
  type ResourcePart,
} from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { outputProblemOf } from '../call/output.js';
import { boundResult } from '../output-limits/truncate.js';

/*
 * What a resource read, a prompt rendering and a completion may return, checked and bounded the
 * way a tool's output is (see `checkedResult` and `boundResult`).
 */

/** The resource a read's contents default to. */
export interface ReadTarget {
  readonly uri: string;
  readonly mimeType: string | undefined;
}

function invalid(what: string, problem: string): InvalidOutputError {
  return new InvalidOutputError(`${what} returned an invalid output: ${problem}`);
}

/**
 * The contents of what a read returned: text (one text content), bytes (one blob content,
 * base64), one `{ text }` or `{ blob }` content, or an array of those, each with the target's
 * `uri` and `mimeType` where it names none. Throws `InvalidOutputError`:
 * `resource "config://app" returned an invalid output: <problem>`.
 */
export function resourceContentsOf(output: unknown, target: ReadTarget, what: string): ResourceContent[] {
  if (typeof output === 'string' || output instanceof Uint8Array) return [contentOf(output, target, what, 0)];
  if (Array.isArray(output)) return output.map((piece, index) => contentOf(piece, target, what, index));
  if (isJsonObject(output)) return [contentOf(output, target, what, 0)];
  throw invalid(
    what,
    `expected text, bytes, a { text } or { blob } content or an array of them, got ${kindOf(output)}`,
  );
}

function contentOf(piece: unknown, target: ReadTarget, what: string, index: number): ResourceContent {
  const base = { uri: target.uri, ...(target.mimeType === undefined ? {} : { mimeType: target.mimeType }) };
  if (typeof piece === 'string') return { ...base, text: piece };
  if (piece instanceof Uint8Array)
    return { ...base, blob: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64') };
  const label = `content ${index}`;
  if (!isJsonObject(piece)) throw invalid(what, `${label} is ${kindOf(piece)}, not a { text } or { blob } content`);
  const { uri, mimeType, text, blob } = piece as Record<string, unknown>;
  if (uri !== undefined && typeof uri !== 'string') throw invalid(what, `${label} has a "uri" that is not a string`);
  if (mimeType !== undefined && typeof mimeType !== 'string')
    throw invalid(what, `${label} has a "mimeType" that is not a string`);
  const head = {
    uri: (uri as string | undefined) ?? target.uri,
    ...((mimeType ?? target.mimeType) === undefined ? {} : { mimeType: (mimeType ?? target.mimeType) as string }),
  };
  if (typeof text === 'string' && blob === undefined) return { ...head, text };
  if (typeof blob === 'string' && text === undefined) return { ...head, blob };
  throw invalid(what, `${label} needs a string "text" or a base64 string "blob" (one of them)`);
}

/**
 * Bounds the text of a read's contents to `maxChars` characters, as `boundResult` bounds a
 * tool's text: text contents across the read, cut with the truncation marker where the bound
 * falls, later text contents dropped; blobs are neither counted nor cut.
 */
export function boundContents(contents: readonly ResourceContent[], maxChars: number): ResourceContent[] {
  const parts: ResourcePart[] = contents.map((resource) => ({ type: 'resource', resource }) as ResourcePart);
  const bounded = boundResult({ content: parts }, maxChars);
  if (bounded.content === parts) return [...contents];
  return bounded.content.map((part) => (part as ResourcePart).resource as ResourceContent);
}

/**
 * The full result of what a prompt returned: text (one user message), an array of messages, or
 * `{ description?, messages }`. Each message needs a role `user` or `assistant` and one content
 * part of the kinds a tool's output may hold. Throws `InvalidOutputError`:
 * `prompt "review" returned an invalid output: <problem>`.
 */
export function promptResultOf(output: unknown, what: string): PromptResult {
  if (typeof output === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: output } }] };
  let messages: unknown;
  let description: unknown;
  if (Array.isArray(output)) messages = output;
  else if (isJsonObject(output) && Array.isArray(output.messages)) {
    messages = output.messages;
    description = output.description;
    if (description !== undefined && typeof description !== 'string')
      throw invalid(what, '"description" must be a string');
  } else throw invalid(what, `expected text, an array of messages or { messages }, got ${kindOf(output)}`);
  const checked = (messages as unknown[]).map((message, index): PromptMessage => {
    if (!isJsonObject(message)) throw invalid(what, `message ${index} is ${kindOf(message)}, not { role, content }`);
    if (message.role !== 'user' && message.role !== 'assistant')
      throw invalid(
        what,
        `message ${index} needs the role "user" or "assistant", got ${JSON.stringify(message.role) ?? 'nothing'}`,
      );
    const problem = outputProblemOf([message.content]);
    if (problem !== undefined)
      throw invalid(what, `message ${index}: ${problem.replace(/^content part 0/, 'its content')}`);
    return { role: message.role, content: message.content as unknown as ContentPart };
  });
  return description === undefined ? { messages: checked } : { description: description as string, messages: checked };
}

/**
 * Bounds the text of a prompt's messages to `maxChars` characters, as `boundResult` bounds a
 * tool's: the message where the bound falls ends with the truncation marker, later text
 * messages are dropped, other messages keep their places.
 */
export function boundPrompt(result: PromptResult, maxChars: number): PromptResult {
  const parts = result.messages.map((message) => message.content);
  const bounded = boundResult({ content: parts }, maxChars).content;
  if (bounded === parts) return result;
  const messages: PromptMessage[] = [];
  let next = 0;
  for (const [index, message] of result.messages.entries()) {
    const part = bounded[next];
    if (part === parts[index]) {
      messages.push(message);
      next++;
    } else if (part !== undefined && !parts.includes(part)) {
      // The part the bound fell in: a fresh object with the cut text.
      messages.push({ role: message.role, content: part });
      next++;
    }
    // Otherwise the bound dropped this message's text.
  }
  return { ...result, messages };
}

/**
 * The answer of what a completer returned: the values (strings, best first), or `{ values,
 * total?, hasMore? }`. More than `MAX_COMPLETION_VALUES` (100) values are cut to the first 100,
 * with `hasMore: true` and `total` at least the number returned. Throws `InvalidOutputError`:
 * `completion of "language" returned an invalid output: <problem>`.
 */
export function completionAnswerOf(output: unknown, what: string): CompletionAnswer {
  let values: unknown;
  let total: unknown;
  let hasMore: unknown;
  if (Array.isArray(output)) values = output;
  else if (isJsonObject(output)) ({ values, total, hasMore } = output);
  else throw invalid(what, `expected an array of strings or { values, total?, hasMore? }, got ${kindOf(output)}`);
  if (!Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    throw invalid(what, '"values" must be an array of strings');
  if (total !== undefined && (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0))
    throw invalid(what, '"total" must be a whole number (0 or more)');
  if (hasMore !== undefined && typeof hasMore !== 'boolean') throw invalid(what, '"hasMore" must be true or false');
  const all = values as string[];
  const cut = all.length > MAX_COMPLETION_VALUES;
  const kept = cut ? all.slice(0, MAX_COMPLETION_VALUES) : all;
  const answer: { values: string[]; total?: number; hasMore?: boolean } = { values: kept };
  if (total !== undefined || cut) answer.total = Math.max((total as number | undefined) ?? 0, all.length);
  if (cut) answer.hasMore = true;
  else if (hasMore !== undefined) answer.hasMore = hasMore as boolean;
  return answer;
}
