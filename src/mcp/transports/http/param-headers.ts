import type { IncomingHttpHeaders } from 'node:http';
import { isJsonObject, type JsonObject } from '../../../contract/index.js';

/** One tool parameter a client must mirror in an `Mcp-Param-<name>` header (SEP-2243). */
export interface ParamHeader {
  readonly property: string;
  readonly header: string;
}

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const WRAPPED = /^=\?base64\?(.*)\?=$/i;

/** The parameter headers of frozen schemas (see `paramHeadersOf`), which can never change. */
const headersOfFrozen = new WeakMap<JsonObject, readonly ParamHeader[]>();

/**
 * The parameters a tool's input schema marks with `x-mcp-header` (a top-level property whose
 * schema names the header suffix, `{"type":"string","x-mcp-header":"Region"}`), in schema order.
 * A mark that is not a header-name string is ignored. Read once for a schema whose object, its
 * `properties` and each property's schema are frozen (a compiled tool's), and kept by the schema.
 */
export function paramHeadersOf(schema: JsonObject | undefined): readonly ParamHeader[] {
  if (schema === undefined) return [];
  const kept = headersOfFrozen.get(schema);
  if (kept !== undefined) return kept;
  const properties = isJsonObject(schema.properties) ? schema.properties : undefined;
  const found: ParamHeader[] = [];
  let frozen = Object.isFrozen(schema) && (properties === undefined || Object.isFrozen(properties));
  for (const [property, propertySchema] of Object.entries(properties ?? {})) {
    frozen &&= Object.isFrozen(propertySchema);
    const header = isJsonObject(propertySchema) ? propertySchema['x-mcp-header'] : undefined;
    if (typeof header === 'string' && HEADER_NAME.test(header)) found.push({ property, header });
  }
  if (frozen) headersOfFrozen.set(schema, Object.freeze(found));
  return found;
}

/**
 * Checks a 2026-07-28 `tools/call` against the `Mcp-Param-*` headers its tool declares, as
 * SEP-2243 asks: a parameter the body carries needs its header, and the header's value (a
 * literal, or `=?base64?<strict Base64>?=` decoded as UTF-8; surrounding whitespace ignored) must
 * equal the body's value as a string; a header for a parameter the body lacks is a mismatch too.
 * Returns the problem (`the Mcp-Param-Region header is missing but the body has "region"`,
 * `the Mcp-Param-Region header is not valid Base64`, `the Mcp-Param-Region header does not match
 * the body's "region"`), or `undefined` when everything matches.
 */
export function paramHeaderProblem(
  declared: readonly ParamHeader[],
  args: unknown,
  headers: IncomingHttpHeaders,
): string | undefined {
  const values = isJsonObject(args) ? args : {};
  for (const { property, header } of declared) {
    const name = `Mcp-Param-${header}`;
    const raw = headers[name.toLowerCase()];
    const given = Array.isArray(raw) ? raw.join(', ') : raw;
    const value = values[property];
    if (value === undefined || value === null) {
      if (given !== undefined) return `the ${name} header is given but the body has no ${JSON.stringify(property)}`;
      continue;
    }
    if (given === undefined) return `the ${name} header is missing but the body has ${JSON.stringify(property)}`;
    const trimmed = given.trim();
    const wrapped = WRAPPED.exec(trimmed);
    let decoded = trimmed;
    if (wrapped !== null) {
      if (!BASE64.test(wrapped[1]!)) return `the ${name} header is not valid Base64`;
      decoded = Buffer.from(wrapped[1]!, 'base64').toString('utf8');
    }
    const expected = typeof value === 'object' ? JSON.stringify(value) : String(value);
    if (decoded !== expected) return `the ${name} header does not match the body's ${JSON.stringify(property)}`;
  }
  return undefined;
}
