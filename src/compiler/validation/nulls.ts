import { isJsonObject, type JsonObject } from '../../contract/index.js';
import { setDataKey } from '../schema/json-values.js';
import { resolveLocalRef } from '../schema/local-ref.js';

/**
 * Where, in arguments valid against a schema, a `null` stands for "left out": the properties
 * that are optional (not in `required`) and whose schema admits `null`. Project rule: an
 * `@IsOptional()` property may be omitted or be `null`, the schema admits both, and the tool
 * sees `undefined` (or the property's initialiser) for either.
 */
export interface NullPlan {
  /** Properties whose `null` is dropped. */
  readonly droppable: Set<string>;
  /** Plans for the values of properties holding objects or arrays. */
  readonly properties: Map<string, NullPlan>;
  /** The plan for every item, when the value is an array. */
  items: NullPlan | undefined;
}

/** True when `schema` accepts `null` (by `type`, `enum`, `const` or a branch of `anyOf`/`oneOf`). */
function admitsNull(schema: JsonObject, root: JsonObject): boolean {
  const target = resolveLocalRef(schema, root).schema;
  const type = target.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(target.enum) && target.enum.includes(null)) return true;
  if ('const' in target && target.const === null) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = target[key];
    if (Array.isArray(branches) && branches.some((branch) => isJsonObject(branch) && admitsNull(branch, root)))
      return true;
  }
  return false;
}

/**
 * Builds the null plan of a schema once, at compile time. Local `$ref`s are followed, recursive
 * schemas give recursive plans, and `allOf`/`anyOf`/`oneOf` branches are merged. Returns
 * `undefined` when no `null` can ever be dropped, so the pipeline skips the step entirely.
 */
export function nullPlanOf(schema: JsonObject): NullPlan | undefined {
  const root = schema;
  const plans = new Map<JsonObject, NullPlan>();
  const building = (node: JsonObject): NullPlan => {
    const target = resolveLocalRef(node, root).schema;
    const known = plans.get(target);
    if (known !== undefined) return known;
    const plan: NullPlan = { droppable: new Set(), properties: new Map(), items: undefined };
    plans.set(target, plan);
    const required = new Set(Array.isArray(target.required) ? (target.required as string[]) : []);
    if (isJsonObject(target.properties)) {
      for (const [key, value] of Object.entries(target.properties)) {
        if (!isJsonObject(value)) continue;
        if (!required.has(key) && admitsNull(value, root)) plan.droppable.add(key);
        plan.properties.set(key, building(value));
      }
    }
    if (isJsonObject(target.items)) plan.items = building(target.items);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = target[key];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches) {
        if (!isJsonObject(branch)) continue;
        const child = building(branch);
        for (const name of child.droppable) plan.droppable.add(name);
        for (const [name, sub] of child.properties) if (!plan.properties.has(name)) plan.properties.set(name, sub);
        if (plan.items === undefined && child.items !== undefined) plan.items = child.items;
      }
    }
    return plan;
  };
  const plan = building(root);
  // Prune branches that can never drop anything, so the walk at run time visits only the rest.
  for (const each of plans.values()) {
    for (const [key, child] of each.properties) if (!hasDroppable(child, new Set())) each.properties.delete(key);
    if (each.items !== undefined && !hasDroppable(each.items, new Set())) each.items = undefined;
  }
  return hasDroppable(plan, new Set()) ? plan : undefined;
}

function hasDroppable(plan: NullPlan, seen: Set<NullPlan>): boolean {
  if (seen.has(plan)) return false;
  seen.add(plan);
  if (plan.droppable.size > 0) return true;
  for (const child of plan.properties.values()) if (hasDroppable(child, seen)) return true;
  return plan.items !== undefined && hasDroppable(plan.items, seen);
}

/** Copies an object's own enumerable string keys onto a fresh plain object, `__proto__` included as data. */
function copyWithout(source: object, dropped: ReadonlySet<string>, replaced: ReadonlyMap<string, unknown>): object {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (dropped.has(key)) continue;
    const value = replaced.has(key) ? replaced.get(key) : (source as Record<string, unknown>)[key];
    setDataKey(copy, key, value);
  }
  return copy;
}

/**
 * Returns `value` with the `null`s the plan marks dropped, copying only the objects and arrays
 * on the way to a dropped `null` and never changing `value` itself. It recurses once per level
 * of the value, so it must run after the depth check (which bounds the levels).
 */
export function dropOptionalNulls(value: unknown, plan: NullPlan): unknown {
  if (Array.isArray(value)) {
    if (plan.items === undefined) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = dropOptionalNulls(value[i], plan.items);
      if (next !== value[i]) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const dropped = new Set<string>();
  const replaced = new Map<string, unknown>();
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    if (child === null) {
      if (plan.droppable.has(key)) dropped.add(key);
      continue;
    }
    const childPlan = plan.properties.get(key);
    if (childPlan === undefined || typeof child !== 'object') continue;
    const next = dropOptionalNulls(child, childPlan);
    if (next !== child) replaced.set(key, next);
  }
  return dropped.size === 0 && replaced.size === 0 ? value : copyWithout(value, dropped, replaced);
}
