import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { isPlainSchema } from './plain-schema.js';
import { isVouchedSchema } from './vouched.js';
import { invalidOption } from '../../util/options.js';

// ajv and ajv-formats (CommonJS, about 90 files) are loaded when the first validator is made, so
// a process whose tools are never called, or only compiled, never loads them.
const load = createRequire(import.meta.url);

/**
 * A compiled JSON Schema: called with a value, it answers whether the value matches, and leaves
 * the problems of the last failed check in `errors` (Ajv's error objects). An Ajv
 * `ValidateFunction` is one.
 */
export type CompiledSchema = ((data: unknown) => boolean) & { errors?: readonly ErrorObject[] | null };

/**
 * What toolwright compiles JSON Schemas (2020-12) with: any object with Ajv's `compile`, such as
 * an `Ajv2020` instance you configured yourself (your own formats or keywords), or
 * `createValidator()`'s. `removeSchema`, when present, is called right after every compile, so
 * the validator's own cache never holds toolwright's schemas: toolwright keeps each compiled
 * schema only as long as the schema object lives (see `compileSchema`). Pass it as the
 * `validator` option of `compile`, the hosts (`Executor`, `createServer`, `serveStdio`,
 * `serveHttp`) or `prepareTools`, as the MCP SDK's `jsonSchemaValidator` option takes one.
 */
export interface SchemaValidator {
  /** Compiles `schema` into a validating function (throws for an invalid schema). */
  compile(schema: object): CompiledSchema;
  /** Forgets a compiled schema (Ajv's own method; called when a tool set is dropped). */
  removeSchema?(schema: object): unknown;
}

/**
 * Makes a fresh Ajv (JSON Schema 2020-12) configured as toolwright's default: ajv-formats,
 * `allErrors` (a model gets every problem at once), `strict: false`, and never a coerced type, a
 * removed property or a filled-in default. Making one costs 15 to 28 ms (it compiles the
 * meta-schema): make it once and pass it around. Use it to add formats or keywords of your own,
 * then pass it as a `validator` option.
 */
export function createValidator(): Ajv2020 {
  const { Ajv2020: Ajv } = load('ajv/dist/2020.js') as { Ajv2020: new (options: object) => Ajv2020 };
  // ajv-formats' CommonJS export is the plugin itself (its `default` is the same function).
  const addFormats = load('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    validateFormats: true,
  });
  addFormats(ajv);
  return ajv;
}

let defaultInstance: Ajv2020 | undefined;

/**
 * The validator used where no `validator` option was given: one `createValidator()` instance,
 * made on first use. Internal: never exported from the package, so nobody can change what
 * every other tool set validates with.
 */
export function defaultValidator(): SchemaValidator {
  defaultInstance ??= createValidator();
  return defaultInstance;
}

/** True for an object with a `compile` function (and, when given, a `removeSchema` function). */
export function isSchemaValidator(value: unknown): value is SchemaValidator {
  if (typeof value !== 'object' || value === null) return false;
  const given = value as { compile?: unknown; removeSchema?: unknown };
  return (
    typeof given.compile === 'function' &&
    (given.removeSchema === undefined || typeof given.removeSchema === 'function')
  );
}

/**
 * Checks a `validator` option: `undefined` (the default validator) or a `SchemaValidator`.
 * Throws a `TypeError` beginning with `where` otherwise.
 */
export function checkValidatorOption(value: unknown, where: string): SchemaValidator | undefined {
  if (value === undefined || isSchemaValidator(value)) return value;
  throw invalidOption(
    where,
    'validator',
    'an object with a compile(schema) function (an Ajv instance, for one)',
    value,
  );
}

/** Compiled schemas per validator, each kept only as long as its schema object lives. */
const compiledByValidator = new WeakMap<SchemaValidator, WeakMap<object, CompiledSchema>>();

/**
 * Compiles `schema` with `validator` (default: the default validator), once per schema object:
 * compiling the same object again returns the same function. The validator's own cache is
 * emptied of the schema at once (`removeSchema`), so a schema made for one question (an
 * elicitation form, a one-off check) is forgotten with its object instead of piling up for the
 * life of the process. Throws the validator's error when the schema is not valid JSON Schema;
 * callers report it with the tool's name.
 */
export function compileSchema(schema: object, validator: SchemaValidator = defaultValidator()): CompiledSchema {
  let compiled = compiledByValidator.get(validator);
  if (compiled === undefined) {
    compiled = new WeakMap();
    compiledByValidator.set(validator, compiled);
  }
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  let validate: CompiledSchema;
  try {
    validate = validator.compile(schema);
  } finally {
    validator.removeSchema?.(schema);
  }
  compiled.set(schema, validate);
  return validate;
}

/**
 * A schema's validator compiled when it first validates a value, when that cannot change what
 * `compileSchema` would say now: with the default validator (no `validator` given), a schema
 * that `isPlainSchema` vouches for (valid 2020-12 made of plain keywords only: no `$ref`, `$id`,
 * unknown keyword or format, empty `enum` or pattern ajv could refuse) is compiled on its first
 * use, and ajv itself is loaded then; any other schema, and every schema of a `validator` you
 * gave (its own keywords may refuse a schema only at compile time), is compiled at once with
 * `compileSchema`, which throws ajv's own error for an invalid one. So an invalid schema fails
 * here, exactly as `compileSchema` fails, and a tool set that is never called never pays for
 * compiling (about 2 ms per tool) or for loading ajv. The function returned checks values as the
 * compiled one does, and its `errors` are the compiled one's after each check.
 */
export function compileWhenFirstUsed(schema: object, validator?: SchemaValidator): CompiledSchema {
  return firstUseCompile(schema, validator).check;
}

/** What `firstUseCompile` made: the check, and whether its compile waits for the first value. */
export interface FirstUseCompile {
  readonly check: CompiledSchema;
  /** True when the schema was vouched for and compiles on its first check; false when it compiled at once. */
  readonly deferred: boolean;
}

/**
 * Compiles `schema`, which `isPlainSchema` vouched for, with the default validator, without
 * checking it against the 2020-12 meta-schema first: `isPlainSchema` checked every keyword at
 * least as strictly as the meta-schema does, so the check could only pass, and the meta-schema's
 * own validator, compiled for the first schema an Ajv checks, costs a process about 45 ms on its
 * first call. The code ajv generates is the same; any other schema is still checked.
 */
function compileVouched(schema: object): CompiledSchema {
  const ajv = defaultValidator() as Ajv2020;
  const options = ajv.opts as { validateSchema?: unknown };
  const checks = options.validateSchema;
  options.validateSchema = false;
  try {
    return compileSchema(schema, ajv);
  } finally {
    options.validateSchema = checks;
  }
}

/**
 * `compileWhenFirstUsed`, also saying whether the compile was deferred: a caller with other work
 * that only a check needs (the arguments pipeline's null plan) defers it exactly when the compile
 * is deferred, so a schema that compiled at once never has anything left to fail later. A schema
 * `compile` generated and vouched for (see `vouchForSchema`) is taken as plain without the walk.
 */
export function firstUseCompile(schema: object, validator?: SchemaValidator): FirstUseCompile {
  if (validator !== undefined || !(isVouchedSchema(schema) || isPlainSchema(schema)))
    return { check: compileSchema(schema, validator), deferred: false };
  let compiled: CompiledSchema | undefined;
  const check = ((data: unknown): boolean => {
    compiled ??= compileVouched(schema);
    const valid = compiled(data);
    check.errors = compiled.errors ?? null;
    return valid;
  }) as CompiledSchema;
  check.errors = null;
  return { check, deferred: true };
}
