import assert from 'node:assert/strict';
import { plainToInstance } from 'class-transformer';
import { ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { defaultValidator } from '../../src/compiler/validation/validator.js';
import { instantiatorOf } from '../../src/compiler/validation/instantiate.js';

// Helpers of the validation module's own suites (validation-*). They import
// the module's files only (never the package root), so a suite stays as light as what it tests.

/** A residual constraint (`@Validate(IsCode)`): upper-case letters only, `must be upper-case letters` otherwise. */
@ValidatorConstraint({ name: 'isCode' })
export class IsCode implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^[A-Z]+$/.test(value);
  }
  defaultMessage(): string {
    return 'must be upper-case letters';
  }
}

/**
 * Counts the calls of the default validator's `method` (its `compile`, or `validateSchema`: its
 * checks of a schema against the meta-schema) while `body` runs (awaited when it returns a
 * promise), restoring the method after.
 */
export async function callsDuring(method: 'compile' | 'validateSchema', body: () => unknown): Promise<number> {
  const ajv = defaultValidator() as unknown as Record<typeof method, (...args: unknown[]) => unknown>;
  const original = ajv[method];
  let count = 0;
  ajv[method] = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await body();
  } finally {
    ajv[method] = original;
  }
  return count;
}

/** Counts the default validator's compiles while `body` runs (see `callsDuring`). */
export function compilesDuring(body: () => unknown): Promise<number> {
  return callsDuring('compile', body);
}

/**
 * Builds `dto` from `plain` with the fast builder (`instantiatorOf`) and asserts the result is
 * exactly class-transformer's `plainToInstance` without implicit conversion, prototypes included.
 */
export function sameAsClassTransformer<T extends object>(dto: new () => T, plain: object): T {
  const expected = plainToInstance(dto, plain, { enableImplicitConversion: false });
  const actual = instantiatorOf(dto)(plain) as T;
  assert.deepStrictEqual(actual, expected);
  assert.equal(Object.getPrototypeOf(actual), dto.prototype);
  return actual;
}
