import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import type { JsonObject } from '../../contract/index.js';
import { compileSchema, compileWhenFirstUsed, type CompiledSchema, type SchemaValidator } from './validator.js';

/*
 * The one dialect rule of every entry point (`compile`, `createServer`, `serveStdio`, `serveHttp`,
 * `Executor`, `prepareTools`, the CLI): a schema is checked and validated in the dialect its
 * `$schema` declares (2020-12 when it declares none, MCP's default; draft-07 and draft-04 however
 * the URI is spelt, with or without the trailing `#`), and a schema of any other dialect is never
 * refused: it is served unvalidated and the host's `log` is told (`unknownDialectWarning`).
 * `compile` checks with `compileInDialect` and the call core compiles with it, so the two cannot
 * disagree.
 */

/** The JSON Schema dialects the call core validates hand-built and consumed tools' schemas in. */
export type SchemaDialect = '2020-12' | 'draft-07' | 'draft-04';

const DIALECTS: ReadonlyMap<string, SchemaDialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
  ['http://json-schema.org/draft-07/schema#', 'draft-07'],
  ['http://json-schema.org/draft-04/schema', 'draft-04'],
  ['http://json-schema.org/draft-04/schema#', 'draft-04'],
]);

/** How a message names a dialect: `JSON Schema 2020-12`, `JSON Schema draft-07`. */
export function dialectName(dialect: SchemaDialect): string {
  return `JSON Schema ${dialect}`;
}

/**
 * The line the host's `log` is told for a schema whose dialect no validator here knows:
 * `<label> declares the dialect "<uri>", which no validator here knows; it is served unvalidated`.
 */
export function unknownDialectWarning(label: string, schema: JsonObject): string {
  return `${label} declares the dialect ${JSON.stringify(schema.$schema)}, which no validator here knows; it is served unvalidated`;
}

/**
 * The dialect a schema declares with `$schema`: 2020-12 when it declares none (MCP's default),
 * draft-07 or draft-04 (with or without the trailing `#`), or `undefined` for any other
 * declaration (a dialect no validator here knows).
 */
export function dialectOf(schema: JsonObject): SchemaDialect | undefined {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  // A declaration that is not a string is no key of the map: `undefined` too.
  return DIALECTS.get(declared as string);
}

type AjvLike = { compile(schema: object): ValidateFunction; removeSchema(schema: object): unknown };

// The draft-07 and draft-04 validators are loaded on first use (about 150 ms of module loading
// that a tool set without such schemas never pays).
const load = createRequire(import.meta.url);
let draft07: AjvLike | undefined;
let draft04: AjvLike | undefined;

const OPTIONS = {
  allErrors: true,
  strict: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  validateFormats: true,
} as const;

function validatorFor(dialect: 'draft-07' | 'draft-04'): AjvLike {
  // ajv-formats' and ajv-draft-04's CommonJS exports are the plugin and the class themselves.
  const addFormats = load('ajv-formats') as (ajv: object) => void;
  if (dialect === 'draft-07') {
    if (draft07 === undefined) {
      const { Ajv } = load('ajv') as { Ajv: new (options: object) => AjvLike };
      draft07 = new Ajv(OPTIONS);
      addFormats(draft07);
    }
    return draft07;
  }
  if (draft04 === undefined) {
    const Ajv04 = load('ajv-draft-04') as new (options: object) => AjvLike;
    draft04 = new Ajv04(OPTIONS);
    addFormats(draft04);
  }
  return draft04;
}

/**
 * Compiles a hand-built or consumed tool's schema in the dialect it declares: 2020-12 with
 * `validator` (default: the default validator, which compiles a schema it can vouch for on its
 * first use; see `compileWhenFirstUsed`), draft-07 and draft-04 each with a validator of its own (the `$schema`
 * declaration itself is left to the choice of validator, so `draft-07/schema` without `#` is
 * accepted too). Returns `undefined` for a dialect no validator here knows: the caller serves
 * the tool unvalidated and says so. Throws the validator's error when the schema is not valid in
 * its dialect. The draft validators keep nothing of a schema once it is compiled.
 */
export function compileInDialect(schema: JsonObject, validator?: SchemaValidator): CompiledSchema | undefined {
  const dialect = dialectOf(schema);
  if (dialect === undefined) return undefined;
  if (dialect === '2020-12') return compileWhenFirstUsed(schema, validator);
  const { $schema: _declared, ...rest } = schema;
  // Through compileSchema, so the dialect's validator forgets the schema once compiled: a consumed
  // server's schemas, compiled again on every refresh, never pile up in it, and two tools whose
  // schemas share an `$id` both compile.
  return compileSchema(rest, validatorFor(dialect));
}
