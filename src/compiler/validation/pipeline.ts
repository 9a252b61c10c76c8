import { InvalidArgumentsError, type ArgumentProblem, type JsonObject } from '../../contract/index.js';
import type { ResidualConstraint } from '../schema/index.js';
import { isPositiveInteger } from '../../util/limits.js';
import { problemsOf } from './ajv.js';
import { firstUseCompile, type SchemaValidator } from './validator.js';
import { DEFAULT_MAX_DEPTH, depthProblem } from './depth.js';
import { dropOptionalNulls, nullPlanOf, type NullPlan } from './nulls.js';
import { instantiatorOf, type Instantiate } from './instantiate.js';
import { residualCheckOf, type ResidualCheck } from './residual.js';
import { argumentsObject } from './shape.js';
import { invalidOption } from '../../util/options.js';

/** What an arguments pipeline is made from. */
export interface ArgumentsPipelineOptions {
  /** The JSON Schema (2020-12) of the arguments object. */
  readonly schema: JsonObject;
  /** The DTO class to build; without one the validated plain object is handed over. */
  readonly dto?: Function;
  /** Constraints the schema cannot express, checked by class-validator on the DTO. */
  readonly residual?: readonly ResidualConstraint[];
  /** The deepest nesting accepted, the arguments object being level 1. Default 64. */
  readonly maxDepth?: number;
  /** What compiles the schema (default: the default validator, see `SchemaValidator`). */
  readonly validator?: SchemaValidator;
}

/** Turns raw JSON arguments into the validated value a tool's `execute` receives. */
export interface ArgumentsPipeline {
  /** The schema the pipeline validates with. */
  readonly schema: JsonObject;
  /** The deepest nesting it accepts. */
  readonly maxDepth: number;
  /** True when it runs class-validator for residual constraints. */
  readonly checksResidual: boolean;
  /**
   * Validates `raw` and builds the DTO; rejects with `InvalidArgumentsError` listing every
   * problem. Never changes `raw`.
   */
  parse(raw: unknown): Promise<object>;
  /**
   * `parse` without its promise, when no residual constraint runs (class-validator's check may be
   * asynchronous): returns what `parse` resolves, throws what it rejects with. `undefined` when
   * the pipeline runs class-validator.
   */
  readonly parseNow?: ((raw: unknown) => object) | undefined;
}

/** What a pipeline needs only once it builds a DTO: made once per pipeline. */
interface Preparation {
  readonly nullPlan: NullPlan | undefined;
  readonly instantiate: Instantiate | undefined;
}

/**
 * Builds the pipeline a compiled tool runs on every call, compiling the schema once with
 * `options.validator` (an invalid schema throws ajv's error here, at compile time; a schema the
 * default validator can vouch for is compiled on the first call, see `compileWhenFirstUsed`).
 * The null plan (step 4) and the DTO builder (step 5) are made once: with the compile when the
 * schema compiles at once, else by the first call that gets past validation (they never fail
 * for a schema the default validator vouches for, and they are plain synchronous work, so
 * concurrent first calls share the one made first).
 * Per call it:
 *
 * 1. reads `undefined` and `""` as `{}`, and refuses any non-object (`expected an object, got null`);
 * 2. refuses arguments nested deeper than `maxDepth` with an iterative walk, before anything
 *    recursive touches them (`nested deeper than 64 levels`);
 * 3. validates with ajv and lists every problem as `/pointer: message`; unknown keys, including
 *    an own `__proto__` or `constructor` key, are refused here by `additionalProperties: false`;
 * 4. drops the `null`s of optional properties, so the tool sees them as left out;
 * 5. builds the DTO as class-transformer's `plainToInstance` does, without implicit conversion
 *    (`__proto__` and `constructor` keys are never copied onto the instance); classes without
 *    `@Transform`/`@Expose`/`@Exclude` take a faster builder with the same result (see
 *    `instantiatorOf`);
 * 6. only when the schema has residual constraints, runs class-validator and keeps only their
 *    errors.
 *
 * Nothing is coerced: `"5"` for an integer is an error, never `5`.
 */
export function createArgumentsPipeline(options: ArgumentsPipelineOptions): ArgumentsPipeline {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!isPositiveInteger(maxDepth))
    throw invalidOption('createArgumentsPipeline', 'maxDepth', 'a positive integer', maxDepth);
  const { schema, dto } = options;
  const { check: validator, deferred } = firstUseCompile(schema, options.validator);
  const residual: ResidualCheck | undefined = dto === undefined ? undefined : residualCheckOf(options.residual ?? []);
  const prepare = (): Preparation => ({
    nullPlan: nullPlanOf(schema),
    instantiate: dto === undefined ? undefined : instantiatorOf(dto),
  });
  let prepared: Preparation | undefined = deferred ? undefined : prepare();

  /** Steps 1 to 5: the plain value, or the DTO built from it when there is a class. */
  const build = (raw: unknown): object => {
    const shape = argumentsObject(raw);
    if (shape.problem !== undefined) throw argumentsError([shape.problem]);
    const tooDeep = depthProblem(shape.value, maxDepth);
    if (tooDeep !== undefined) throw argumentsError([tooDeep]);
    if (!validator(shape.value)) throw argumentsError(problemsOf(validator.errors));
    const { nullPlan, instantiate } = (prepared ??= prepare());
    const plain = nullPlan === undefined ? shape.value : (dropOptionalNulls(shape.value, nullPlan) as object);
    return instantiate === undefined ? plain : instantiate(plain);
  };

  return Object.freeze({
    schema,
    maxDepth,
    checksResidual: residual !== undefined,
    async parse(raw: unknown): Promise<object> {
      const value = build(raw);
      // A residual check exists only with a class, so `value` is then the DTO.
      if (residual !== undefined) {
        const problems = await residual.problems(value);
        if (problems.length > 0) throw argumentsError(problems);
      }
      return value;
    },
    parseNow: residual === undefined ? build : undefined,
  });
}

/**
 * Makes the `InvalidArgumentsError` for `problems` without capturing a stack trace: the error
 * describes the caller's input, never a fault in code, and capturing a stack costs more than
 * validating the arguments did (about 3 µs of the 10 µs an invalid call takes).
 */
function argumentsError(problems: readonly ArgumentProblem[]): InvalidArgumentsError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new InvalidArgumentsError(problems);
  } finally {
    Error.stackTraceLimit = limit;
  }
}
