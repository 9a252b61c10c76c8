import type { Annotations, ToolFlow, ToolReplay, Requirement, ToolTaskClaim } from '../contract/index.js';

/**
 * Typed access to the metadata toolwright's decorators leave on classes. Each kind lives on the
 * class itself under its own `Symbol.for('toolwright/...')` key, as a non-enumerable property,
 * so two copies of toolwright in one process read each other's metadata and nothing is kept in
 * a global registry. Class-level metadata is read from the class itself only (a subclass that
 * wants to be a tool says so itself); field metadata is inherited along the prototype chain.
 */

/** A class that can be instantiated with `new` (constructor arguments unknown). */
export type Class<T = unknown> = abstract new (...args: any[]) => T;

/** The options of `@Tool`. */
export interface ToolOptions {
  /** The tool's name; defaults to the class name in snake_case without a trailing `Tool`. */
  readonly name?: string;
  readonly title?: string;
  /** What the tool does, for the model. Required by `compile`. */
  readonly description: string;
  /** The arguments DTO class; inferred from `execute`'s first parameter type when omitted. */
  readonly args?: Class;
  /** The result DTO class: its schema becomes the output schema. */
  readonly result?: Class;
  /** The OAuth scopes a caller's token must hold to call the tool; the same as `@Scopes(...)`. */
  readonly scopes?: readonly string[];
}

/** The options of `@Field` (and what `@Description` records). */
export interface FieldOptions {
  readonly description?: string;
  readonly title?: string;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
  /** An explicit default; otherwise a property initialiser's value is used. */
  readonly default?: unknown;
}

/** The class-level claims the decorators record. */
export interface ToolClaims {
  readonly annotations?: Annotations;
  readonly sequential?: boolean;
  readonly barrier?: boolean;
  readonly resource?: string;
  readonly flow?: ToolFlow;
  readonly replay?: ToolReplay;
  readonly timeoutMs?: number;
  readonly maxOutputChars?: number;
  readonly requires?: readonly Requirement[];
  readonly scopes?: readonly string[];
  readonly task?: ToolTaskClaim;
}

export const TOOL_KEY = Symbol.for('toolwright/tool');
export const CLAIMS_KEY = Symbol.for('toolwright/claims');
export const FACTS_KEY = Symbol.for('toolwright/facts');
export const ARGS_KEY = Symbol.for('toolwright/args');
export const FIELDS_KEY = Symbol.for('toolwright/fields');
export const SHAPES_KEY = Symbol.for('toolwright/shapes');

/** A type a map value or a union member may have: a JSON primitive's constructor, or a DTO class. */
export type ValueType = StringConstructor | NumberConstructor | BooleanConstructor | DateConstructor | Function;

/** A value type, or an arrow function returning one (for a class declared later in the file). */
export type ValueTypeRef = ValueType | (() => ValueType);

/** What `@MapOf` and `@UnionOf` record for a property. */
export type ShapeOptions =
  | { readonly kind: 'map'; readonly value: ValueTypeRef }
  | { readonly kind: 'union'; readonly members: readonly ValueTypeRef[] }
  | {
      readonly kind: 'discriminated';
      readonly discriminator: string;
      readonly cases: ReadonlyMap<string, ValueTypeRef>;
    };

function own<T>(target: object, key: symbol): T | undefined {
  return Object.prototype.hasOwnProperty.call(target, key) ? (target as Record<symbol, T>)[key] : undefined;
}

function setOwn(target: object, key: symbol, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true, writable: false });
}

/** The `@Tool` options of `cls`, or `undefined` when it has none. */
export function getToolOptions(cls: Function): ToolOptions | undefined {
  return own<ToolOptions>(cls, TOOL_KEY);
}

/** Records `options` on `cls` as a frozen copy, or as they are when they are frozen already. */
export function setToolOptions(cls: Function, options: ToolOptions): void {
  setOwn(cls, TOOL_KEY, Object.isFrozen(options) ? options : Object.freeze({ ...options }));
}

/** The claims recorded on `cls` (an empty object when none). */
export function getClaims(cls: Function): ToolClaims {
  return own<ToolClaims>(cls, CLAIMS_KEY) ?? {};
}

/**
 * Merges `patch` into the claims of `cls`; `annotations` are merged hint by hint. The claims
 * `getClaims` answered before are never changed: each merge records a new frozen object. A
 * frozen plain `patch` (with frozen `annotations`) on a class without claims is recorded as it
 * is, and `merged`, given only with such a patch, remembers what it merged onto each claims
 * object gave, so a decorator that records the same frozen patch on many classes merges each
 * combination once (frozen claims objects may be shared by classes: nothing can change them).
 */
export function addClaims(cls: Function, patch: ToolClaims, merged?: WeakMap<ToolClaims, ToolClaims>): void {
  const current = own<ToolClaims>(cls, CLAIMS_KEY);
  // A caller that gives `merged` gives a frozen plain patch (see `constantClaimDecorator`).
  if (current === undefined && (merged !== undefined || isFrozenClaims(patch))) return setOwn(cls, CLAIMS_KEY, patch);
  const known = current === undefined ? undefined : merged?.get(current);
  if (known !== undefined) return setOwn(cls, CLAIMS_KEY, known);
  const next: { -readonly [K in keyof ToolClaims]: ToolClaims[K] } = { ...current, ...patch };
  if (patch.annotations !== undefined)
    next.annotations = Object.freeze({ ...current?.annotations, ...patch.annotations });
  else if (current?.annotations !== undefined) next.annotations = current.annotations;
  Object.freeze(next);
  if (current !== undefined) merged?.set(current, next);
  setOwn(cls, CLAIMS_KEY, next);
}

/** Whether `claims` may be recorded as it is: a frozen plain object, with frozen `annotations`. */
function isFrozenClaims(claims: ToolClaims): boolean {
  return (
    Object.isFrozen(claims) &&
    Object.getPrototypeOf(claims) === Object.prototype &&
    (claims.annotations === undefined || Object.isFrozen(claims.annotations))
  );
}

/** The name of the method marked `@Facts()` on `cls`, or `undefined`. */
export function getFactsMethod(cls: Function): string | symbol | undefined {
  return own<string | symbol>(cls, FACTS_KEY);
}

export function setFactsMethod(cls: Function, method: string | symbol): void {
  setOwn(cls, FACTS_KEY, method);
}

/** What `@Args()` recorded: the parameter index on `execute`. */
export function getArgsParameter(cls: Function): number | undefined {
  return own<number>(cls, ARGS_KEY);
}

export function setArgsParameter(cls: Function, index: number): void {
  setOwn(cls, ARGS_KEY, index);
}

export const ARGS_CLASS_KEY = Symbol.for('toolwright/args-class');

/** The class `@Args(SomeArgs)` named, or `undefined`. */
export function getArgsClass(cls: Function): Function | undefined {
  return own<Function>(cls, ARGS_CLASS_KEY);
}

export function setArgsClass(cls: Function, dto: Function): void {
  setOwn(cls, ARGS_CLASS_KEY, dto);
}

/**
 * `cls` and its base classes, the furthest base first (at most 64 of them). Internal: not
 * exported from the decorators index.
 */
export function classChain(cls: Function): Function[] {
  // Most classes extend nothing: no walk for them.
  if (typeof cls === 'function' && Object.getPrototypeOf(cls) === Function.prototype) return [cls];
  const chain: Function[] = [];
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype && chain.length < 64;
    c = Object.getPrototypeOf(c)
  )
    chain.unshift(c as Function);
  return chain;
}

/**
 * The field options of every property of `dto` that has any, own and inherited (a subclass's
 * options for a property win over its base class's), each a fresh object in a fresh map.
 */
export function getFieldOptions(dto: Function): ReadonlyMap<string, FieldOptions> {
  const copies = new Map<string, FieldOptions>();
  for (const [key, value] of fieldOptionsOf(dto)) copies.set(key, { ...value });
  return copies;
}

const NO_FIELDS: ReadonlyMap<string, FieldOptions> = new Map();

/**
 * What `getFieldOptions` answers, without its copies, for toolwright's own readers (not exported
 * from the decorators index): the map a single class recorded is answered as it is, so the
 * caller must never change the map or its entries (recorded entries are frozen).
 */
export function fieldOptionsOf(dto: Function): ReadonlyMap<string, FieldOptions> {
  let only: ReadonlyMap<string, FieldOptions> | undefined;
  let merged: Map<string, FieldOptions> | undefined;
  for (const c of classChain(dto)) {
    const fields = own<Map<string, FieldOptions>>(c, FIELDS_KEY);
    if (fields === undefined) continue;
    if (only === undefined) {
      only = fields;
      continue;
    }
    merged ??= new Map(only);
    for (const [key, value] of fields) {
      const base = merged.get(key);
      merged.set(key, base === undefined ? value : { ...base, ...value });
    }
  }
  return merged ?? only ?? NO_FIELDS;
}

/**
 * Merges `options` into the field options `dto` itself records for `property` (a frozen copy,
 * or `options` themselves when they are the first and frozen; an option given again wins). The
 * class's own map is made once and grows in place: nothing outside this file changes it
 * (`getFieldOptions` answers fresh copies, `fieldOptionsOf` is read-only).
 */
export function addFieldOptions(dto: Function, property: string, options: FieldOptions): void {
  let fields = own<Map<string, FieldOptions>>(dto, FIELDS_KEY);
  if (fields === undefined) {
    fields = new Map();
    setOwn(dto, FIELDS_KEY, fields);
  }
  const recorded = fields.get(property);
  // The first options of a property, frozen already (what @Description and @Field give), are kept as they are.
  fields.set(
    property,
    recorded === undefined && Object.isFrozen(options) ? options : Object.freeze({ ...recorded, ...options }),
  );
}

const NO_SHAPES: ReadonlyMap<string, ShapeOptions> = new Map();

/**
 * The `@MapOf`/`@UnionOf` shapes of every property of `dto`, own and inherited (a subclass's
 * wins), in a map the caller only reads: a fresh one, or one shared empty map when no class of
 * the chain records any (most DTOs).
 */
export function getShapes(dto: Function): ReadonlyMap<string, ShapeOptions> {
  let merged: Map<string, ShapeOptions> | undefined;
  for (const c of classChain(dto)) {
    const shapes = own<Map<string, ShapeOptions>>(c, SHAPES_KEY);
    if (shapes === undefined) continue;
    merged ??= new Map();
    for (const [key, value] of shapes) merged.set(key, value);
  }
  return merged ?? NO_SHAPES;
}

export function setShape(dto: Function, property: string, shape: ShapeOptions): void {
  const shapes = new Map(own<Map<string, ShapeOptions>>(dto, SHAPES_KEY) ?? []);
  shapes.set(property, shape);
  setOwn(dto, SHAPES_KEY, shapes);
}
