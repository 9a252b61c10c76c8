/**
 * JSON values as they cross a wire. `Json` is exactly what `JSON.parse` can return; tools take
 * and give these so a contract tool behaves the same in process and over MCP.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object: the shape of a tool's arguments, a schema, or structured content. */
export type JsonObject = { [key: string]: Json };

/**
 * Reports whether `value` is a plain JSON object (not `null`, not an array). It never inspects
 * the object's members.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
