import { cleanText, isCleanLine } from '../util/clean-text.js';
import { DecoratorError } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import {
  checkedFor,
  checkNow,
  checkOnApply,
  methodTarget,
  optionalBoolean,
  optionalString,
  plainOptions,
  propertyClass,
} from './guards.js';
import {
  addFieldOptions,
  getFactsMethod,
  setArgsClass,
  setArgsParameter,
  setFactsMethod,
  type FieldOptions,
} from './metadata.js';

/**
 * Marks the method that answers the facts claim: `facts(args, ctx)` returns `{ calls, rewrite? }`
 * for one call without acting. It receives the validated arguments DTO. One per class; a second
 * `@Facts()` throws at once.
 */
export function Facts(): MethodDecorator {
  return (...args: unknown[]) => {
    const { cls, method } = methodTarget('@Facts()', args);
    const existing = getFactsMethod(cls);
    if (existing !== undefined && existing !== method) {
      throw new DecoratorError(
        `@Facts(): ${cls.name} already answers facts with ${String(existing)}(); a tool has one facts method`,
      );
    }
    setFactsMethod(cls, method);
  };
}

/** The plain-function twin of `@Facts()`. */
export function defineFacts(cls: Function, method: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, method);
  Facts()(cls.prototype, method, descriptor ?? { value: undefined });
}

/**
 * Marks `execute`'s first parameter as the arguments DTO. `@Args(GreetArgs)` names the class,
 * which works on every runner; `@Args()` alone lets `compile` read it from
 * `design:paramtypes`, which only tsc and swc record (esbuild-based runners such as tsx,
 * vitest 3 and esbuild bundles do not). Throws on any other method or position, and, naming
 * the member (`@Args() on member Tool.execute: the arguments class must be a class, got a
 * string`), when the given class is not a class.
 */
export function Args(dto?: Function): ParameterDecorator {
  const checked = checkOnApply('@Args()', () => {
    if (dto !== undefined && (typeof dto !== 'function' || dto.prototype === undefined)) {
      throw new DecoratorError(`@Args(): the arguments class must be a class, got ${kindOf(dto)}`);
    }
    return dto;
  });
  return (target: object, key: string | symbol | undefined, index: number) => {
    if (typeof target !== 'object' || key !== 'execute' || index !== 0) {
      const where =
        typeof target === 'function'
          ? `constructor of ${target.name}`
          : `${(target as { constructor?: { name?: string } }).constructor?.name ?? '(anonymous)'}.${String(key)}() parameter ${index}`;
      throw new DecoratorError(`@Args() marks the first parameter of execute(), but it was applied to the ${where}`);
    }
    const cls = (target as { constructor: Function }).constructor;
    const given = checked([target, key]);
    setArgsParameter(cls, index);
    if (given !== undefined) setArgsClass(cls, given);
  };
}

/**
 * Describes a property of an arguments or result class; the text becomes its schema
 * `description`, as the author means it (surrounding whitespace and the common indentation of a
 * multi-line template literal removed; see `cleanText`).
 */
export function Description(text: string): PropertyDecorator {
  // A text that is its own clean text (most) passes the check: no call can fail.
  const checked = isCleanLine(text)
    ? Object.freeze({ description: text })
    : checkNow('@Description()', describedField, text);
  return (target: object, key: string | symbol, descriptor?: unknown) => {
    const cls = propertyClass('@Description()', target, key, descriptor);
    addFieldOptions(cls, key as string, checkedFor(checked, [target, key]));
  };
}

/** The frozen field options `@Description(text)` records; throws for a blank text. */
function describedField(text: string): FieldOptions {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new DecoratorError(`@Description(): the text must be a non-empty string, got ${JSON.stringify(text)}`);
  }
  return Object.freeze({ description: cleanText(text) });
}

const FIELD_KEYS = ['description', 'title', 'examples', 'deprecated', 'default'] as const;

/**
 * Describes a property in more detail: `description`, `title`, `examples` (an array of valid
 * values), `deprecated`, and an explicit `default` (a property initialiser is used otherwise).
 * Each lands in the property's schema under the same JSON Schema keyword.
 */
export function Field(options: FieldOptions): PropertyDecorator {
  const checked = checkNow('@Field()', fieldOptions, options);
  return (target: object, key: string | symbol, descriptor?: unknown) => {
    const cls = propertyClass('@Field()', target, key, descriptor);
    addFieldOptions(cls, key as string, checkedFor(checked, [target, key]));
  };
}

/** The frozen field options `@Field(options)` records; throws for a bad option. */
function fieldOptions(options: FieldOptions): FieldOptions {
  const given = plainOptions('@Field()', options, FIELD_KEYS);
  optionalString('@Field()', 'description', given.description);
  optionalString('@Field()', 'title', given.title);
  optionalBoolean('@Field()', 'deprecated', given.deprecated);
  if (given.examples !== undefined && !Array.isArray(given.examples)) {
    throw new DecoratorError(`@Field(): "examples" must be an array of example values, got ${kindOf(given.examples)}`);
  }
  const field = given as FieldOptions;
  return Object.freeze(
    field.description === undefined ? { ...field } : { ...field, description: cleanText(field.description) },
  );
}

/** The plain-function twin of `@Description()`: describes `property` of the class `dto`. */
export function defineDescription(dto: Function, property: string, text: string): void {
  Description(text)(dto.prototype, property);
}

/** The plain-function twin of `@Field()`: describes `property` of the class `dto`. */
export function defineField(dto: Function, property: string, options: FieldOptions): void {
  Field(options)(dto.prototype, property);
}
