import { DecoratorError } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { isPositiveInteger } from '../util/limits.js';
import { checkOnApply, classTarget, plainOptions } from './guards.js';
import { addClaims } from './metadata.js';

function checkChars(options: unknown): number {
  const given = plainOptions('@MaxOutput()', options, ['chars']);
  const chars = given.chars;
  if (!isPositiveInteger(chars)) {
    throw new DecoratorError(
      `@MaxOutput(): "chars" must be a positive integer, got ${typeof chars === 'number' ? String(chars) : kindOf(chars)}`,
    );
  }
  return chars;
}

/**
 * Bounds the characters of text the model sees from this tool (`maxOutputChars`): every host's
 * call core cuts longer text with a visible marker, and it wins over the host's
 * `maxOutputChars` option. Throws a `DecoratorError` naming the class, as the class is defined, for
 * a `chars` that is not a positive integer or a target that is not a class.
 */
export function MaxOutput(options: { readonly chars: number }): ClassDecorator {
  const chars = checkOnApply('@MaxOutput()', () => checkChars(options));
  return (...args: unknown[]) => {
    const cls = classTarget('@MaxOutput()', args);
    addClaims(cls, { maxOutputChars: chars(args) });
  };
}

/** The plain-function twin of `@MaxOutput()`. */
export function defineMaxOutput(cls: Function, options: { readonly chars: number }): void {
  MaxOutput(options)(cls);
}
