import { DecoratorError, isJsonObject } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { propertyTarget } from './guards.js';
import { setShape, type ShapeOptions, type ValueType, type ValueTypeRef } from './metadata.js';

/**
 * Decorators that state a property's shape where TypeScript records only `Object`: a map
 * (`Record<string, T>`, `Map<string, T>`) and a union (`A | B`, `string | number`). Both work
 * without `design:type` (esbuild-based runners record none), and both check their arguments at
 * once, throwing a `DecoratorError` that names the decorator and the bad argument.
 */

/** The constructors that stand for JSON values: `String`, `Number`, `Boolean`, and `Date` (an ISO date-time string). */
const PRIMITIVES: ReadonlySet<unknown> = new Set<unknown>([String, Number, Boolean, Date]);

/** Whether `value` is a class (a function with a prototype) or one of the primitive constructors. */
function isValueType(value: unknown): value is ValueType {
  return typeof value === 'function' && (PRIMITIVES.has(value) || value.prototype !== undefined);
}

/**
 * Checks one value type: a primitive constructor, a class, or an arrow function returning one
 * (for a class declared further down the file). The arrow is called only when the schema is
 * generated.
 */
function checkValueType(decorator: string, what: string, value: unknown): ValueTypeRef {
  if (isValueType(value)) return value;
  if (typeof value === 'function' && value.prototype === undefined) return value as () => ValueType;
  throw new DecoratorError(
    `${decorator}: ${what} must be String, Number, Boolean, Date, a class, or () => Class, got ${kindOf(value)}`,
  );
}

/**
 * Declares a map property: a JSON object whose keys are any strings and whose values all have
 * the given type. `@MapOf(String) labels!: Record<string, string>` becomes
 * `{"type":"object","additionalProperties":{"type":"string"}}`; `@MapOf(() => Label)` makes each
 * value a `Label` instance (its schema inline, or a `$ref` on a cycle). A property declared as
 * `Map<string, T>` receives a `Map`; any other receives a plain object.
 */
export function MapOf(valueType: ValueTypeRef): PropertyDecorator {
  const value = checkValueType('@MapOf()', 'the value type', valueType);
  const shape: ShapeOptions = Object.freeze({ kind: 'map', value });
  return (...args: unknown[]) => {
    const { cls, property } = propertyTarget('@MapOf()', args);
    setShape(cls, property, shape);
  };
}

/** The options of a discriminated `@UnionOf`: the discriminator property and its value per class. */
export interface DiscriminatedUnion {
  /** The property whose string value says which class the object is (`kind`). */
  readonly discriminator: string;
  /** Each discriminator value and its class: `{ circle: Circle, square: Square }`. */
  readonly cases: Readonly<Record<string, ValueTypeRef>>;
}

/**
 * Declares a union property, in one of two forms:
 *
 * - `@UnionOf([String, Number])` or `@UnionOf([TextPart, ImagePart])`: the value is any one of
 *   the listed types (primitive constructors and classes mixed freely). The schema is an
 *   `anyOf` of the members' schemas; an object becomes an instance of the first listed class
 *   whose schema accepts it.
 * - `@UnionOf({ discriminator: 'kind', cases: { circle: Circle, square: Square } })`: the value
 *   is an object of one of the classes, chosen by its `kind` string. The schema is an `anyOf` of
 *   the classes' schemas, each with `kind` fixed to its name (`{"type":"string","const":"circle"}`,
 *   required); the object becomes an instance of the class its `kind` names.
 *
 * On a property declared as an array, the union describes each item. Throws a `DecoratorError`
 * for an empty list, a member that is no type, fewer than one case, or a blank discriminator.
 */
export function UnionOf(members: readonly ValueTypeRef[] | DiscriminatedUnion): PropertyDecorator {
  const shape = checkUnion(members);
  return (...args: unknown[]) => {
    const { cls, property } = propertyTarget('@UnionOf()', args);
    setShape(cls, property, shape);
  };
}

function checkUnion(members: unknown): ShapeOptions {
  if (Array.isArray(members)) {
    if (members.length === 0)
      throw new DecoratorError('@UnionOf(): list at least one member type, for example @UnionOf([String, Number])');
    const checked = members.map((member, index) => checkValueType('@UnionOf()', `member ${index}`, member));
    return Object.freeze({ kind: 'union', members: Object.freeze(checked) });
  }
  if (!isJsonObject(members)) {
    throw new DecoratorError(
      `@UnionOf() takes a list of member types or { discriminator, cases }, got ${kindOf(members)}`,
    );
  }
  for (const key of Object.keys(members)) {
    if (key !== 'discriminator' && key !== 'cases')
      throw new DecoratorError(`@UnionOf() has no option "${key}" (known options: discriminator, cases)`);
  }
  const { discriminator, cases } = members as { discriminator?: unknown; cases?: unknown };
  if (typeof discriminator !== 'string' || discriminator.trim() === '') {
    throw new DecoratorError(
      `@UnionOf(): "discriminator" must be the name of the property that tells the cases apart, got ${kindOf(discriminator)}`,
    );
  }
  if (!isJsonObject(cases) || Object.keys(cases).length === 0) {
    throw new DecoratorError(
      `@UnionOf(): "cases" must map each ${discriminator} value to its class, for example { circle: Circle }, got ${kindOf(cases)}`,
    );
  }
  const checkedCases = new Map<string, ValueTypeRef>();
  for (const [name, value] of Object.entries(cases)) {
    const checked = checkValueType('@UnionOf()', `case "${name}"`, value);
    if (PRIMITIVES.has(checked))
      throw new DecoratorError(
        `@UnionOf(): case "${name}" must be a class (a discriminated union holds objects), got ${(checked as Function).name}`,
      );
    checkedCases.set(name, checked);
  }
  return Object.freeze({ kind: 'discriminated', discriminator, cases: checkedCases });
}

/** The plain-function twin of `@MapOf()`. */
export function defineMapOf(dto: Function, property: string, valueType: ValueTypeRef): void {
  MapOf(valueType)(dto.prototype, property);
}

/** The plain-function twin of `@UnionOf()`. */
export function defineUnionOf(
  dto: Function,
  property: string,
  members: readonly ValueTypeRef[] | DiscriminatedUnion,
): void {
  UnionOf(members)(dto.prototype, property);
}
