/**
 * JSON values as they cross a wire. `Json` is exactly what `JSON.parse` can return; tools take
 * and give these so a contract tool behaves the same in process and over MCP.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object: the shape of a tool's arguments, a schema, or structured content. */
export type JsonObject = { [key: string]: Json };

/**
 * Reports whether `value` is an object that is neither `null` nor an array: what a JSON object
 * parses to, but also any class instance, `Map` or `Date`. It never inspects the prototype or the
 * members, so it says nothing about whether the members are JSON.
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
