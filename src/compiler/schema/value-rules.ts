import type { Json } from '../../contract/index.js';
import { intersectTypes, type TypeSet } from './type-set.js';

/** Keywords that only ever tighten: the larger lower bound and the smaller upper bound win. */
const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems']);

/**
 * A class-transformer discriminated `@Type(() => Base, { discriminator })`: the value is one of
 * the subtype classes, chosen by the string in `property`.
 */
export interface Variants {
  readonly property: string;
  readonly cases: readonly { readonly name: string; readonly cls: Function }[];
}

export type BoundKeyword =
  'minimum' | 'exclusiveMinimum' | 'minLength' | 'minItems' | 'maximum' | 'exclusiveMaximum' | 'maxLength' | 'maxItems';

// The lists and bounds of rules start as these shared empty values and get their own on the
// first addition (most properties never add to most of them).
const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_VALUES: readonly Json[] = Object.freeze([]);
const NO_BOUNDS: Bounds = Object.freeze({});

/** The bounds a value's rules set, by keyword (a plain object: most values have one or two). */
export type Bounds = { readonly [K in BoundKeyword]?: number };

/**
 * A new list of `list`'s items and `item` at the end (`list` is never changed). The lists are
 * short (a decorator or two), so a copy of the exact length costs less than growing one.
 */
function appended<T>(list: readonly T[], item: T): readonly T[] {
  return list.length === 0 ? [item] : list.concat([item]);
}

/** The list of one decorator, by decorator, made once each (decorator names are a fixed set). */
const ONE_DECORATOR = new Map<string, readonly string[]>();

/** `decorators` with `decorator` added at the end, unless it is listed already. */
function withDecorator(decorators: readonly string[], decorator: string): readonly string[] {
  if (decorators.length > 0) return decorators.includes(decorator) ? decorators : appended(decorators, decorator);
  let only = ONE_DECORATOR.get(decorator);
  if (only === undefined) ONE_DECORATOR.set(decorator, (only = Object.freeze([decorator])));
  return only;
}

/**
 * What the decorators of one property say about one JSON value: the property's value itself,
 * or (for `each: true` and arrays) every item of it. Rules only accumulate; each call tightens
 * them, the way class-validator requires every decorator to pass. The generator turns the
 * finished rules into a schema with `renderRules`.
 */
export class ValueRules {
  /** The allowed JSON types; `undefined` while no decorator has said anything about the type. */
  declare types: TypeSet | undefined;
  /** The decorators that constrained `types`, in order, for messages (`@IsString()`). */
  declare typeDecorators: readonly string[];
  /** Set when the type decorators contradict each other: the decorators involved. */
  declare typeConflict: readonly string[] | undefined;
  /** Allowed values (`@IsEnum`, `@IsIn`); `undefined` when not restricted. */
  declare enumValues: Json[] | undefined;
  /** The single allowed value (`@Equals`). */
  declare constValue: { readonly value: Json } | undefined;
  /** Forbidden values (`@IsNotIn`, `@NotEquals`, `@IsNotEmpty` on a non-string). */
  declare notValues: readonly Json[];
  /** `@IsNotEmpty()`: not `""` (rendered as `minLength: 1` on strings). */
  declare notEmpty: boolean;
  /** Numeric, length and size bounds (see `bound`). */
  declare bounds: Bounds;
  /** `@Matches` patterns, in order (see `addPattern`). */
  declare patterns: readonly string[];
  /** String formats, in order (see `addFormat`). */
  declare formats: readonly string[];
  declare uniqueItems: boolean;
  /** `@ValidateNested()` was applied at this level. */
  declare nestedRequested: boolean;
  /** The DTO class the value is an instance of, once known. */
  declare nested: Function | undefined;
  /** The subtype classes of a discriminated `@Type`, once known (instead of `nested`). */
  declare variants: Variants | undefined;
  /** The rules for the items, when the value is an array. */
  declare items: ValueRules | undefined;
  /** `@MapOf(T)`: the rules every value of the map (a JSON object with any keys) follows. */
  declare mapValues: ValueRules | undefined;
  /** `@UnionOf([A, B])`: the value follows the rules of at least one member. */
  declare unionMembers: readonly ValueRules[] | undefined;

  /** The decorators that restricted `enumValues`, in order, for messages (`@IsIn()`). */
  declare enumDecorators: readonly string[];

  /**
   * Sets every field by plain assignment, always in this order, so that every instance has one
   * shape (class field definitions cost a define per field, and the generator makes one of these
   * per property and per level of items).
   */
  constructor() {
    this.types = undefined;
    this.typeDecorators = NO_STRINGS;
    this.typeConflict = undefined;
    this.enumValues = undefined;
    this.constValue = undefined;
    this.notValues = NO_VALUES;
    this.notEmpty = false;
    this.bounds = NO_BOUNDS;
    this.patterns = NO_STRINGS;
    this.formats = NO_STRINGS;
    this.uniqueItems = false;
    this.nestedRequested = false;
    this.nested = undefined;
    this.variants = undefined;
    this.items = undefined;
    this.mapValues = undefined;
    this.unionMembers = undefined;
    this.enumDecorators = NO_STRINGS;
  }

  /** Narrows the allowed types to `types` on behalf of `decorator`. */
  requireTypes(types: TypeSet, decorator: string): void {
    this.typeDecorators = withDecorator(this.typeDecorators, decorator);
    const next = this.types === undefined ? types : intersectTypes(this.types, types);
    if (next.size === 0 && this.typeConflict === undefined) this.typeConflict = [...this.typeDecorators];
    this.types = next;
  }

  /** Records a numeric bound, keeping the tighter one when the keyword is already set. */
  bound(keyword: BoundKeyword, value: number): void {
    if (this.bounds === NO_BOUNDS) this.bounds = {};
    const bounds = this.bounds as { [K in BoundKeyword]?: number };
    const current = bounds[keyword];
    if (current === undefined) bounds[keyword] = value;
    else if (LOWER_BOUNDS.has(keyword)) bounds[keyword] = Math.max(current, value);
    else if (UPPER_BOUNDS.has(keyword)) bounds[keyword] = Math.min(current, value);
  }

  /** Whether any bound is set. */
  hasBounds(): boolean {
    return this.bounds !== NO_BOUNDS;
  }

  /** Restricts the value to `values` on behalf of `decorator` (intersected with an earlier restriction). */
  restrictTo(values: readonly Json[], decorator: string): void {
    this.enumDecorators = withDecorator(this.enumDecorators, decorator);
    this.enumValues = this.enumValues === undefined ? [...values] : this.enumValues.filter((v) => values.includes(v));
  }

  /** Forbids each of `values` (primitives only). */
  forbid(values: readonly Json[]): void {
    for (const value of values) if (!this.notValues.includes(value)) this.notValues = appended(this.notValues, value);
  }

  /** Adds a string format (a second one goes into `allOf` when rendered). */
  addFormat(format: string): void {
    this.formats = appended(this.formats, format);
  }

  /** Adds a `pattern` (a second one goes into `allOf` when rendered). */
  addPattern(pattern: string): void {
    this.patterns = appended(this.patterns, pattern);
  }

  /** The rules for the items, created on first use. */
  itemRules(): ValueRules {
    this.items ??= new ValueRules();
    return this.items;
  }

  /** Whether anything says what the value is: a type, allowed values, or a DTO class. */
  hasKnownType(): boolean {
    return (
      this.types !== undefined ||
      this.enumValues !== undefined ||
      this.constValue !== undefined ||
      this.nested !== undefined ||
      this.variants !== undefined ||
      this.unionMembers !== undefined
    );
  }
}
