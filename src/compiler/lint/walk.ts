import { isJsonObject, type JsonObject } from '../../contract/index.js';
import type { SchemaNode } from './types.js';

/** Keywords whose value is one subschema. */
const SINGLE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;
/** Keywords whose value is a list of subschemas. */
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'] as const;

/** Escapes one JSON pointer segment (`~` → `~0`, `/` → `~1`). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The most nodes one walk visits, so a hostile schema cannot make the linter run for ever. */
const MAX_NODES = 10_000;

/**
 * Visits every subschema of `schema` once, depth first, the root first: properties, items,
 * additionalProperties, the members of anyOf/oneOf/allOf, $defs, not, if/then/else, and the
 * rest of JSON Schema 2020-12's applicators. `$ref`s are not followed (their targets are visited
 * where they are defined). Stops after 10,000 nodes.
 */
export function walkSchema(schema: JsonObject, visit: (node: SchemaNode) => void): void {
  const stack: SchemaNode[] = [{ schema, pointer: '', root: true, objectDepth: 1 }];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_NODES) {
    const node = stack.pop()!;
    visited++;
    visit(node);
    const children: SchemaNode[] = [];
    const depthBelow =
      node.objectDepth +
      (node.schema.type === 'object' || (Array.isArray(node.schema.type) && node.schema.type.includes('object'))
        ? 1
        : 0);
    const add = (child: unknown, pointer: string, objectDepth: number): void => {
      if (isJsonObject(child)) children.push({ schema: child, pointer, root: false, objectDepth });
    };
    for (const key of MAPS) {
      const map = node.schema[key];
      if (!isJsonObject(map)) continue;
      for (const name of Object.keys(map))
        add(
          map[name],
          `${node.pointer}/${key}/${pointerSegment(name)}`,
          key === 'properties' || key === 'patternProperties' ? depthBelow : 1,
        );
    }
    for (const key of SINGLE)
      add(node.schema[key], `${node.pointer}/${key}`, key === 'additionalProperties' ? depthBelow : node.objectDepth);
    for (const key of LISTS) {
      const list = node.schema[key];
      if (Array.isArray(list))
        list.forEach((child, index) => add(child, `${node.pointer}/${key}/${index}`, node.objectDepth));
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** The `type` keyword as a list (empty when absent). */
export function typesOf(schema: JsonObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** Whether the node describes objects (by `type`, or by having `properties`). */
export function isObjectSchema(schema: JsonObject): boolean {
  return typesOf(schema).includes('object') || isJsonObject(schema.properties);
}

/**
 * Whether the schema refers to itself: a `$ref` to `#`, or a cycle among its `$defs`.
 */
export function isRecursive(document: JsonObject): boolean {
  let recursive = false;
  const defs = isJsonObject(document.$defs) ? document.$defs : {};
  const refsOf = (schema: JsonObject): string[] => {
    const refs: string[] = [];
    walkSchema(schema, (node) => {
      if (typeof node.schema.$ref === 'string') refs.push(node.schema.$ref);
    });
    return refs;
  };
  if (refsOf(document).includes('#')) return true;
  const edges = new Map<string, string[]>();
  for (const name of Object.keys(defs)) {
    const def = defs[name];
    if (isJsonObject(def))
      edges.set(
        name,
        refsOf(def)
          .filter((ref) => ref.startsWith('#/$defs/'))
          .map((ref) => ref.slice('#/$defs/'.length)),
      );
  }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string, depth: number): void => {
    if (recursive || depth > 256) return;
    if (state.get(name) === 'open') {
      recursive = true;
      return;
    }
    if (state.get(name) === 'done') return;
    state.set(name, 'open');
    for (const next of edges.get(name) ?? []) visit(next, depth + 1);
    state.set(name, 'done');
  };
  for (const name of edges.keys()) visit(name, 0);
  return recursive;
}
