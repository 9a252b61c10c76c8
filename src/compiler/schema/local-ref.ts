import { isJsonObject, type JsonObject } from '../../contract/index.js';

/** A schema reached through local `$ref`s, and the name of the definition it is. */
export interface ResolvedSchema {
  readonly schema: JsonObject;
  /**
   * The last segment of the last `$ref` followed (`Node` for `#/$defs/Node`), `(recursive)` for
   * `#`, or `undefined` when `schema` had no local `$ref` that leads anywhere.
   */
  readonly name?: string;
}

/** The most `$ref`s followed in a row, so a cycle of references cannot loop for ever. */
const MAX_HOPS = 32;

/**
 * Follows the local `$ref`s of `schema` within `root`: `#` is the root itself; `#/a/b` is a JSON
 * pointer (`~1` and `~0` unescaped), read through own keys only, so `#/__proto__` leads nowhere.
 * It stops at the first schema without a local `$ref`, at a `$ref` that is not local or leads to
 * no schema, and after 32 hops. It never copies or changes a schema.
 */
export function resolveLocalRef(schema: JsonObject, root: JsonObject): ResolvedSchema {
  let current = schema;
  let name: string | undefined;
  for (let hops = 0; hops < MAX_HOPS && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (ref === '#') return { schema: root, name: '(recursive)' };
    if (!ref.startsWith('#/')) break;
    let target: unknown = root;
    let last = '';
    for (const part of ref.slice(2).split('/')) {
      last = part.replace(/~1/g, '/').replace(/~0/g, '~');
      target = isJsonObject(target) && Object.prototype.hasOwnProperty.call(target, last) ? target[last] : undefined;
    }
    if (!isJsonObject(target)) break;
    current = target;
    name = last;
  }
  return name === undefined ? { schema: current } : { schema: current, name };
}
