import type { JsonObject } from './json.js';

/** A block of text shown to the model. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image, as base64 `data` with its MIME type (`image/png`, ...). */
export interface ImagePart {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

/** Audio, as base64 `data` with its MIME type (`audio/wav`, ...). */
export interface AudioPart {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/** An embedded resource: its URI and either its text or its base64 `blob`. */
export interface ResourcePart {
  readonly type: 'resource';
  readonly resource:
    | { readonly uri: string; readonly mimeType?: string; readonly text: string }
    | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
}

/** A link to a resource the client may fetch itself. */
export interface ResourceLinkPart {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One piece of a tool's output. */
export type ContentPart = TextPart | ImagePart | AudioPart | ResourcePart | ResourceLinkPart;

/**
 * A record a tool leaves of its call: a namespace `"owner:kind"` and JSON data, kept by a host's
 * recorder and served under the record `_meta` key. An empty namespace cannot be recorded.
 */
export interface ToolRecord {
  readonly ns: string;
  readonly data: unknown;
}

/**
 * The full form of what a tool returns. `content` is what the model reads; `structuredContent`
 * is JSON that must match the tool's output schema when it has one; `details` stay with the
 * host and never cross the wire; `record` is kept by the host's recorder. `isError` marks the
 * content as a failure the model can read (a thrown error is the usual way to say that).
 */
export interface ToolResult {
  readonly content: readonly ContentPart[];
  readonly structuredContent?: JsonObject;
  readonly details?: unknown;
  readonly record?: ToolRecord;
  readonly isError?: boolean;
  /** Asks the host's loop to stop after this batch; honoured only when every result sets it. */
  readonly terminate?: boolean;
}

/** What `execute` may return: plain text, content parts, or a full result. */
export type ToolOutput = string | readonly ContentPart[] | ToolResult;

/** Makes a text part. */
export function text(value: string): TextPart {
  return { type: 'text', text: value };
}

/** Makes an image part from base64 data. */
export function image(data: string, mimeType: string): ImagePart {
  return { type: 'image', data, mimeType };
}

/** Makes an audio part from base64 data. */
export function audio(data: string, mimeType: string): AudioPart {
  return { type: 'audio', data, mimeType };
}

/** Makes an embedded text resource part. */
export function embeddedText(uri: string, value: string, mimeType?: string): ResourcePart {
  return { type: 'resource', resource: mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value } };
}

/** Makes an embedded binary resource part from base64 data. */
export function embeddedBlob(uri: string, blob: string, mimeType?: string): ResourcePart {
  return { type: 'resource', resource: mimeType === undefined ? { uri, blob } : { uri, mimeType, blob } };
}

/** Makes a resource link part. */
export function resourceLink(
  uri: string,
  name: string,
  extra: Omit<ResourceLinkPart, 'type' | 'uri' | 'name'> = {},
): ResourceLinkPart {
  return { type: 'resource_link', uri, name, ...extra };
}

/**
 * Normalises any `ToolOutput` to a `ToolResult`: a string becomes one text part, an array of
 * parts becomes the content. A `ToolResult` is returned as it is. It never copies or checks the
 * parts themselves.
 */
export function resultOf(output: ToolOutput): ToolResult {
  if (typeof output === 'string') return { content: [text(output)] };
  if (Array.isArray(output)) return { content: output as readonly ContentPart[] };
  return output as ToolResult;
}

/**
 * The text of a result for places that show only text (logs, progress messages): every text
 * part joined with a newline. Non-text parts are left out.
 */
export function textOf(output: ToolOutput): string {
  const result = resultOf(output);
  const texts: string[] = [];
  for (const part of result.content) if (part.type === 'text') texts.push(part.text);
  return texts.join('\n');
}
