import type { ToolRecord, ToolResult } from '../../contract/index.js';

/**
 * How a call through the core ended: a result (possibly one marked `isError`), or an error with
 * the call's record, when it has one (the record the thrown error carries, a `ToolError`'s or a
 * permission denial's, else the last one the tool wrote with `ctx.writeRecord`).
 */
export type CallEnd =
  | { readonly ok: true; readonly result: ToolResult }
  | { readonly ok: false; readonly error: Error; readonly record?: ToolRecord };
