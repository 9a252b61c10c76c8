import { ToolwrightError, type ToolRecord, type ToolResult } from '../contract/index.js';
import { RawJsonData } from '../contract/internal.js';
import type { ReplayOutcome } from '../runtime/index.js';
import { RedisBadReplyError } from './errors.js';

/**
 * A failure as it comes back from a shared store: an `Error` with the first failure's `name`,
 * `code` (when it had a string one) and `message`, so a host shows it exactly as the first call's
 * (the MCP edge sends the message as the `isError` text). Its class is not the original's:
 * `instanceof IdempotencyConflictError` and the like is false on it; branch on `code`.
 */
export class StoredFailure extends ToolwrightError {
  override readonly name: string;

  constructor(name: string, code: string, message: string) {
    super(code, message);
    this.name = name;
  }
}

/** A record on the way to JSON: its data as JSON text, exactly as a `RawJsonData` gave it, else serialised. */
interface StoredRecord {
  readonly ns: string;
  readonly json: string;
  readonly raw?: true;
}

function storedRecordOf(record: ToolRecord | undefined): StoredRecord | undefined {
  if (typeof record !== 'object' || record === null || typeof record.ns !== 'string') return undefined;
  if (record.data instanceof RawJsonData) return { ns: record.ns, json: record.data.text, raw: true };
  try {
    const json = JSON.stringify(record.data);
    return json === undefined ? undefined : { ns: record.ns, json };
  } catch {
    return undefined;
  }
}

function recordOfStored(stored: unknown): ToolRecord | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { ns, json, raw } = stored as { ns?: unknown; json?: unknown; raw?: unknown };
  if (typeof ns !== 'string' || typeof json !== 'string') return undefined;
  return Object.freeze({ ns, data: raw === true ? new RawJsonData(json) : (JSON.parse(json) as unknown) });
}

/**
 * An outcome as JSON text for a shared store. A result keeps `content`, `structuredContent`,
 * `isError`, `terminate` and its `record` (raw JSON data byte for byte); a failure keeps the
 * error's `name`, `code` (when a string) and `message`, and the failed call's `record`.
 * What is lost: a result's `details` (host-side data that may not be JSON), an error's class,
 * stack, `cause` and other fields (a `PermissionDeniedError`'s `denials`, a `ToolError`'s
 * `details`), and a record whose data has no JSON form. Throws a `TypeError` when the result's
 * content or structured content cannot be serialised.
 */
export function outcomeToJson(outcome: ReplayOutcome): string {
  if (outcome.ok) {
    const { content, structuredContent, isError, terminate, record } = outcome.result;
    const result: Record<string, unknown> = { content };
    if (structuredContent !== undefined) result.structuredContent = structuredContent;
    if (isError === true) result.isError = true;
    if (terminate === true) result.terminate = true;
    const stored = storedRecordOf(record);
    if (stored !== undefined) result.record = stored;
    return JSON.stringify({ ok: true, result });
  }
  const error = outcome.error as Error & { code?: unknown };
  const failure: Record<string, unknown> = {
    ok: false,
    error: {
      name: typeof error?.name === 'string' ? error.name : 'Error',
      code: typeof error?.code === 'string' ? error.code : 'tool-failed',
      message: typeof error?.message === 'string' ? error.message : String(error),
    },
  };
  const stored = storedRecordOf((outcome as { readonly record?: ToolRecord }).record);
  if (stored !== undefined) failure.record = stored;
  return JSON.stringify(failure);
}

/**
 * Reads an outcome `outcomeToJson` wrote. A failure comes back as a `StoredFailure`. Throws
 * `RedisBadReplyError` for text it did not write.
 */
export function outcomeFromJson(text: string, where: string): ReplayOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RedisBadReplyError(`${where}: the stored outcome is not JSON`);
  }
  const { ok, result, error, record } = (parsed ?? {}) as {
    ok?: unknown;
    result?: unknown;
    error?: unknown;
    record?: unknown;
  };
  if (
    ok === true &&
    typeof result === 'object' &&
    result !== null &&
    Array.isArray((result as { content?: unknown }).content)
  ) {
    const stored = result as {
      content: ToolResult['content'];
      structuredContent?: ToolResult['structuredContent'];
      isError?: true;
      terminate?: true;
      record?: unknown;
    };
    const out: { -readonly [K in keyof ToolResult]: ToolResult[K] } = { content: stored.content };
    if (stored.structuredContent !== undefined) out.structuredContent = stored.structuredContent;
    if (stored.isError === true) out.isError = true;
    if (stored.terminate === true) out.terminate = true;
    const kept = recordOfStored(stored.record);
    if (kept !== undefined) out.record = kept;
    return { ok: true, result: out };
  }
  if (ok === false && typeof error === 'object' && error !== null) {
    const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
    if (typeof name === 'string' && typeof code === 'string' && typeof message === 'string') {
      const failure = new StoredFailure(name, code, message);
      const kept = recordOfStored(record);
      return (
        kept === undefined ? { ok: false, error: failure } : { ok: false, error: failure, record: kept }
      ) as ReplayOutcome;
    }
  }
  throw new RedisBadReplyError(`${where}: the stored outcome is not one toolwright wrote`);
}
