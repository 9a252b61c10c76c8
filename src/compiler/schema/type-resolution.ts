import type { ContractIssue } from '../../contract/index.js';
import * as messages from './messages.js';
import { isOnly, typeSet } from './type-set.js';
import type { TypeSet } from './type-set.js';
import type { ValueRules, Variants } from './value-rules.js';

/** Constructors that are never DTO classes: JavaScript's own. */
const BUILT_INS: ReadonlySet<unknown> = new Set<unknown>([
  Object,
  Function,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Array,
  Date,
  RegExp,
  Error,
  Promise,
  Map,
  Set,
  WeakMap,
  WeakSet,
  ArrayBuffer,
  SharedArrayBuffer,
  DataView,
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
  ...(typeof Buffer === 'function' ? [Buffer] : []),
]);

/** Whether `value` is a class whose instances a schema describes (not a built-in constructor). */
export function isDtoClass(value: unknown): value is Function {
  return typeof value === 'function' && value.prototype !== undefined && !BUILT_INS.has(value);
}

// Type sets are never changed once made, so each answer below is made once.
const STRING_TYPES = { types: typeSet('string') } as const;
const NUMBER_TYPES = { types: typeSet('number') } as const;
const BOOLEAN_TYPES = { types: typeSet('boolean') } as const;
// JSON has no Date: a date travels as an ISO 8601 date-time string.
const DATE_TYPES = { types: typeSet('string'), format: 'date-time' } as const;

/**
 * The types a wrapper constructor stands for (`@Type(() => Number)`, `design:type` Number). The
 * answer is shared: callers read it and never change it.
 */
export function primitiveTypesOf(value: unknown): { readonly types: TypeSet; readonly format?: string } | undefined {
  if (value === String) return STRING_TYPES;
  if (value === Number) return NUMBER_TYPES;
  if (value === Boolean) return BOOLEAN_TYPES;
  if (value === Date) return DATE_TYPES;
  return undefined;
}

/** Where a property is, and what is known about it besides its decorators. */
export interface ResolutionInput {
  readonly className: string;
  readonly property: string;
  /** The class `@Type(() => X)` names, when there is one (it describes the leaves of arrays). */
  readonly hinted: unknown;
  /** The subtypes of a discriminated `@Type`, when it has them. */
  readonly variants: Variants | undefined;
  /** Reads the recorded `design:type` (called only when the decorators leave the type open). */
  designType(): unknown;
  /** Whether `Reflect.getMetadata` exists at all. */
  readonly reflectLoaded: boolean;
  /** `@Allow()`: any value is fine when nothing else says what it is. */
  readonly allowsAnything: boolean;
  readonly issues: ContractIssue[];
}

/**
 * Completes the rules of a property's value with what the decorators did not say: arrays get
 * their item rules, DTO classes become nested, and only when no class-validator decorator
 * fixed the type does `design:type` supply it. Reports an issue (and leaves the value
 * unconstrained) when the type cannot be known.
 */
export function resolvePropertyType(rules: ValueRules, input: ResolutionInput): void {
  const decided = rules.types !== undefined || rules.enumValues !== undefined || rules.constValue !== undefined;
  const isArray = decided ? isOnly(rules.types, 'array') : input.designType() === Array;
  if (isArray) {
    rules.types ??= typeSet('array');
    resolveItems(rules, input);
    return;
  }
  if (resolveNested(rules, input)) return;
  if (decided) return;
  const designType = input.designType();
  const hintedPrimitive = primitiveTypesOf(input.hinted);
  if (hintedPrimitive !== undefined) {
    applyPrimitive(rules, hintedPrimitive);
    return;
  }
  const designPrimitive = primitiveTypesOf(designType);
  if (designPrimitive !== undefined) {
    applyPrimitive(rules, designPrimitive);
    return;
  }
  if (input.allowsAnything && (designType === Object || designType === undefined)) return;
  if (!input.reflectLoaded) {
    input.issues.push(messages.reflectMetadataMissing(input.className, input.property));
    return;
  }
  input.issues.push(messages.unknownPropertyType(input.className, input.property, gapOf(designType)));
}

function applyPrimitive(rules: ValueRules, primitive: { readonly types: TypeSet; readonly format?: string }): void {
  rules.types = primitive.types;
  if (primitive.format !== undefined) rules.addFormat(primitive.format);
}

/**
 * Makes `rules` nested when a DTO class is known for it and nothing says it is not an object.
 * Returns true when the value is settled (nested, or reported).
 */
function resolveNested(rules: ValueRules, input: ResolutionInput): boolean {
  const mayBeObject =
    (rules.types === undefined || rules.types.has('object')) &&
    rules.enumValues === undefined &&
    rules.constValue === undefined;
  if (input.variants !== undefined && mayBeObject) {
    rules.variants = input.variants;
    return true;
  }
  if (mayBeObject) {
    // `@Type(() => X)` first, else a class TypeScript recorded.
    const named = isDtoClass(input.hinted) ? input.hinted : input.designType();
    const candidate = isDtoClass(named) ? named : undefined;
    if (candidate !== undefined) {
      rules.nested = candidate;
      return true;
    }
  }
  if (
    rules.nestedRequested &&
    rules.types === undefined &&
    rules.enumValues === undefined &&
    rules.constValue === undefined
  ) {
    input.issues.push(messages.nestedClassUnknown(input.className, input.property));
    return true;
  }
  return false;
}

/**
 * Completes the item rules of an array. `@ValidateNested()` without `each` also validates each
 * item (class-validator walks arrays), and `@Type(() => X)` names the leaf type of (nested)
 * arrays, as class-transformer reads it.
 */
function resolveItems(rules: ValueRules, input: ResolutionInput, depth = 0): void {
  const items = rules.itemRules();
  if (rules.nestedRequested) items.nestedRequested = true;
  const decided = items.types !== undefined || items.enumValues !== undefined || items.constValue !== undefined;
  if (decided && isOnly(items.types, 'array') && depth < 8) {
    resolveItems(items, input, depth + 1);
    return;
  }
  const candidate = isDtoClass(input.hinted) ? input.hinted : undefined;
  const mayBeObject =
    (items.types === undefined || items.types.has('object')) &&
    items.enumValues === undefined &&
    items.constValue === undefined;
  if (input.variants !== undefined && mayBeObject) {
    items.variants = input.variants;
    return;
  }
  if (candidate !== undefined && mayBeObject) {
    items.nested = candidate;
    return;
  }
  if (!decided) {
    const hintedPrimitive = primitiveTypesOf(input.hinted);
    if (hintedPrimitive !== undefined) applyPrimitive(items, hintedPrimitive);
  }
  if (!items.hasKnownType()) input.issues.push(messages.arrayItemType(input.className, input.property));
}

function gapOf(designType: unknown): messages.DesignTypeGap {
  if (designType === undefined) return { kind: 'absent' };
  if (designType === Object) return { kind: 'object' };
  if (typeof designType === 'function')
    return { kind: 'unsupported', name: designType.name || 'an anonymous function' };
  return { kind: 'enum-object' };
}

/**
 * The subtypes of `@Type(() => Base, { discriminator: { property, subTypes } })`, keeping the
 * subtypes whose `value` is a DTO class and whose `name` is a string; `undefined` when there is
 * no usable discriminator.
 */
export function variantsOf(options: { readonly discriminator?: unknown } | undefined): Variants | undefined {
  const discriminator = options?.discriminator as { property?: unknown; subTypes?: unknown } | undefined;
  if (
    discriminator === undefined ||
    discriminator === null ||
    typeof discriminator.property !== 'string' ||
    !Array.isArray(discriminator.subTypes)
  )
    return undefined;
  const cases: { name: string; cls: Function }[] = [];
  for (const subType of discriminator.subTypes as { name?: unknown; value?: unknown }[]) {
    if (typeof subType?.name === 'string' && isDtoClass(subType.value))
      cases.push({ name: subType.name, cls: subType.value });
  }
  return cases.length === 0 ? undefined : { property: discriminator.property, cases };
}
