import { isJsonObject } from '../../contract/index.js';
import { kindOf } from '../../util/describe.js';
import { invalidParams } from './protocol-error.js';

/*
 * Pagination of the lists toolwright serves besides tools: an opaque cursor (`nextCursor`) that
 * says where the next page starts.
 */

/** The cursor of the page starting at `offset`: opaque to clients (base64url of `o<offset>`). */
export function cursorOf(offset: number): string {
  return Buffer.from(`o${offset}`).toString('base64url');
}

/**
 * Where the page a request's `params.cursor` asks for starts: 0 without a cursor. A cursor that
 * is not a string, or one this server never made (or one past the end of a list of `length`
 * entries), is `-32602` `Invalid params: <method>: unknown cursor ...`.
 */
export function offsetOf(params: unknown, method: string, length: number): number {
  const cursor = isJsonObject(params) ? params.cursor : undefined;
  if (cursor === undefined) return 0;
  if (typeof cursor !== 'string')
    throw invalidParams(`${method}: params.cursor must be a string, got ${kindOf(cursor)}`);
  const text = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^o([1-9][0-9]{0,9})$/.exec(text);
  const offset = match === null ? Number.NaN : Number(match[1]);
  if (!(offset > 0 && offset < length))
    throw invalidParams(`${method}: unknown cursor ${JSON.stringify(cursor.slice(0, 64))}`);
  return offset;
}

/** One page of `entries` under `key`, with `nextCursor` when more follow. */
export function pageOf<T>(
  entries: readonly T[],
  key: string,
  params: unknown,
  method: string,
  pageSize: number,
): Record<string, unknown> {
  const offset = offsetOf(params, method, entries.length);
  const end = offset + pageSize;
  const page: Record<string, unknown> = { [key]: entries.slice(offset, end) };
  if (end < entries.length) page.nextCursor = cursorOf(end);
  return page;
}
