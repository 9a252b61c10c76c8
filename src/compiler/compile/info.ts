import type { ContractTool, JsonObject } from '../../contract/index.js';
import { deepFreeze } from '../../util/freeze.js';
import type { ResidualConstraint } from '../schema/index.js';

/** What `compile` knows about a tool it built from a class; read it with `inspectTool`. */
export interface CompiledToolInfo {
  /** The tool class's name. */
  readonly className: string;
  /** The arguments class's name, or `undefined` for a tool without arguments. */
  readonly argsClass: string | undefined;
  /** The result class's name, when `@Tool({ result })` names one. */
  readonly resultClass: string | undefined;
  /** The method answering the facts claim, when there is one. */
  readonly factsMethod: string | undefined;
  /** Constraints the schema cannot express, checked by class-validator on every call. */
  readonly residual: readonly ResidualConstraint[];
  /** The deepest nesting of arguments the tool accepts. */
  readonly maxDepth: number;
}

const infos = new WeakMap<ContractTool, CompiledToolInfo>();

/** Records what `compile` knows about a tool it made. */
export function recordInfo(tool: ContractTool, info: CompiledToolInfo): void {
  infos.set(tool, Object.freeze(info));
}

/** What `compile` recorded about `tool`, or `undefined` for a hand-built tool. */
export function compiledInfoOf(tool: ContractTool): CompiledToolInfo | undefined {
  return infos.get(tool);
}

/**
 * A frozen, deep copy of a JSON schema, so a listing can never change what a tool validates
 * with: exactly `JSON.parse(JSON.stringify(schema))`, frozen. Plain JSON (plain objects, arrays,
 * strings, booleans, null, finite numbers) is copied in one pass; anything else in it (an
 * `undefined`, a non-finite number, a `toJSON`, a class instance) takes the JSON round trip,
 * which gives the same answer more slowly.
 */
export function deepFrozen<T extends JsonObject>(schema: T): T {
  const copy = frozenPlainCopy(schema, 0);
  return (copy === NOT_PLAIN ? deepFreeze(JSON.parse(JSON.stringify(schema))) : copy) as T;
}

/**
 * `deepFrozen` for a schema that its caller has just made and shares with nobody (what
 * `generateSchema` answered `compile`): when it is plain JSON, it is frozen in place and
 * answered itself, without a copy; otherwise it is answered as `deepFrozen` answers it. Either
 * way the answer is exactly `JSON.parse(JSON.stringify(schema))`, frozen; only a value found at
 * two places of the schema (a `default` of a class nested twice) stays one object.
 */
export function frozenInPlace<T extends JsonObject>(schema: T): T {
  return isPlainFrozen(schema, 0) ? schema : deepFrozen(schema);
}

/** Whether `value` is a JSON primitive: null, a string, a boolean or a finite number. */
function isPlainLeaf(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Freezes `value` and everything in it while it is plain JSON; false (some of it left frozen) at
 * the first part that is not. Members that are primitives are checked in place, without a call.
 */
function isPlainFrozen(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return isPlainLeaf(value);
  if (depth > MAX_COPY_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null ? !isPlainFrozen(item, depth + 1) : !isPlainLeaf(item))
        return false;
    }
  } else {
    if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return false;
    const keys = Object.keys(value);
    for (let index = 0; index < keys.length; index++) {
      const member = (value as Record<string, unknown>)[keys[index]!];
      if (typeof member === 'object' && member !== null ? !isPlainFrozen(member, depth + 1) : !isPlainLeaf(member))
        return false;
    }
  }
  Object.freeze(value);
  return true;
}

/** What `frozenPlainCopy` answers for a value that is not plain JSON. */
const NOT_PLAIN = Symbol('not plain JSON');
/** The deepest nesting copied in one pass; deeper schemas take the JSON round trip. */
const MAX_COPY_DEPTH = 128;

function frozenPlainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : NOT_PLAIN;
  if (typeof value !== 'object' || depth > MAX_COPY_DEPTH) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = frozenPlainCopy(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      items.push(item);
    }
    return Object.freeze(items);
  }
  if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = frozenPlainCopy((value as Record<string, unknown>)[key], depth + 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return Object.freeze(copy);
}
