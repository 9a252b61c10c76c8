import { createRequire } from 'node:module';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import type { ArgumentProblem } from '../../contract/index.js';
import type { ResidualConstraint } from '../schema/index.js';

/**
 * Runs the constraints a schema cannot express (custom `@Validate` constraints and the like)
 * with class-validator, on a DTO instance ajv has already accepted the plain form of.
 */
export interface ResidualCheck {
  /** Resolves the problems of residual constraints only, as `/path: message`; `[]` when none failed. */
  problems(instance: object): Promise<ArgumentProblem[]>;
}

type Validate = (instance: object, options: ValidatorOptions) => Promise<ValidationError[]>;
let validate: Validate | undefined;

/**
 * class-validator's `validate`, loaded the first time a residual check runs (its CommonJS `main`,
 * the module a DTO's decorators come from).
 */
function classValidator(): Validate {
  validate ??= (createRequire(import.meta.url)('class-validator') as { validate: Validate }).validate;
  return validate;
}

function keyOf(className: string, property: string, constraint: string): string {
  return `${className}\u0000${property}\u0000${constraint}`;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Makes the residual check for a list of constraints, or `undefined` when the list is empty (the
 * pipeline then never calls class-validator). class-validator reports every constraint of the
 * instance; only errors of a listed constraint (same class name, property and constraint name)
 * are kept, so a rule ajv already enforced is never reported twice. Errors in nested objects
 * and array items get their JSON pointer (`/options/page`, `/items/0/code`).
 */
export function residualCheckOf(residual: readonly ResidualConstraint[]): ResidualCheck | undefined {
  if (residual.length === 0) return undefined;
  const wanted = new Set(residual.map((r) => keyOf(r.className, r.property, r.constraint)));
  const collect = (errors: readonly ValidationError[], pointer: string, out: ArgumentProblem[]): void => {
    for (const error of errors) {
      const here = `${pointer}/${escapePointer(String(error.property))}`;
      // `validationError.target` is on, so every error (nested ones too) carries the object it is about.
      const className = (error.target as object).constructor.name;
      for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
        if (wanted.has(keyOf(className, String(error.property), constraint))) out.push({ pointer: here, message });
      }
      // class-validator leaves `children` undefined only when whitelisting, which this check never does.
      collect(error.children!, here, out);
    }
  };
  return {
    async problems(instance: object): Promise<ArgumentProblem[]> {
      const errors = await classValidator()(instance, {
        forbidUnknownValues: false,
        validationError: { target: true, value: false },
      });
      const out: ArgumentProblem[] = [];
      collect(errors, '', out);
      return out;
    },
  };
}
