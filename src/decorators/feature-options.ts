import { DecoratorError, isJsonObject, type ResourceAnnotations } from '../contract/index.js';
import { kindOf } from '../util/describe.js';
import { DECORATOR_OF, featureKindOf, type FeatureKind } from './feature-metadata.js';

/*
 * The option checks `@StaticResource`, `@ResourceTemplate` and `@Prompt` share. Each throws a
 * `DecoratorError` beginning with the decorator's name, which `checkOnApply` completes with the
 * class it was applied to.
 */

/** A MIME type `type/subtype` (RFC 6838 token characters), with parameters allowed after `;`. */
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(?:\s*;.*)?$/;
/** An ISO 8601 date-time such as `2025-01-12T15:00:58Z` (a date alone is accepted too). */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Throws unless `value` is undefined or a string with a non-space character. */
export function optionalName(decorator: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.trim() === '')
    throw new DecoratorError(`${decorator}: "name" must be a non-empty string, got ${shown(value)}`);
}

/** Throws unless `value` is undefined or a MIME type such as `text/plain`. */
export function optionalMimeType(decorator: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !MIME_TYPE.test(value))
    throw new DecoratorError(
      `${decorator}: "mimeType" must be a MIME type such as "text/plain" or "application/json", got ${shown(value)}`,
    );
}

/** Throws unless `value` is undefined or a class. */
export function optionalClass(decorator: string, key: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'function' || value.prototype === undefined))
    throw new DecoratorError(`${decorator}: "${key}" must be a class, got ${kindOf(value)}`);
}

/**
 * Checks resource annotations: `audience` an array of `"user"` and `"assistant"`, `priority` a
 * number from 0 to 1, `lastModified` an ISO 8601 timestamp. Returns a frozen copy.
 */
export function checkAnnotations(decorator: string, value: unknown): ResourceAnnotations | undefined {
  if (value === undefined) return undefined;
  if (!isJsonObject(value))
    throw new DecoratorError(
      `${decorator}: "annotations" must be an object { audience?, priority?, lastModified? }, got ${kindOf(value)}`,
    );
  for (const key of Object.keys(value)) {
    if (key !== 'audience' && key !== 'priority' && key !== 'lastModified')
      throw new DecoratorError(
        `${decorator}: "annotations" has no member "${key}" (known members: audience, priority, lastModified)`,
      );
  }
  const { audience, priority, lastModified } = value as Record<string, unknown>;
  if (
    audience !== undefined &&
    (!Array.isArray(audience) || !audience.every((who) => who === 'user' || who === 'assistant'))
  )
    throw new DecoratorError(
      `${decorator}: "annotations.audience" must be an array of "user" and "assistant", got ${shown(audience)}`,
    );
  if (priority !== undefined && (typeof priority !== 'number' || !(priority >= 0 && priority <= 1)))
    throw new DecoratorError(
      `${decorator}: "annotations.priority" must be a number from 0 to 1, got ${shown(priority)}`,
    );
  if (
    lastModified !== undefined &&
    (typeof lastModified !== 'string' || !ISO_8601.test(lastModified) || Number.isNaN(Date.parse(lastModified)))
  )
    throw new DecoratorError(
      `${decorator}: "annotations.lastModified" must be an ISO 8601 timestamp such as "2025-01-12T15:00:58Z", got ${shown(lastModified)}`,
    );
  return Object.freeze({
    ...(audience === undefined ? {} : { audience: Object.freeze([...(audience as ('user' | 'assistant')[])]) }),
    ...(priority === undefined ? {} : { priority: priority as number }),
    ...(lastModified === undefined ? {} : { lastModified: lastModified as string }),
  });
}

/**
 * Throws when `cls` was already decorated as another kind of served thing than `kind` (a class
 * is one tool, one resource, one template or one prompt), naming both decorators.
 */
export function checkOneKind(decorator: string, cls: Function, kind: FeatureKind): void {
  const existing = featureKindOf(cls);
  if (existing === undefined || existing === kind) return;
  throw new DecoratorError(
    `${decorator} on class ${cls.name || '(anonymous)'}: the class is already marked ${DECORATOR_OF[existing]}; a class is one tool, one resource, one resource template or one prompt (write a class for each)`,
  );
}

/** A value for a message: a primitive as JSON, anything else by its kind. */
export function shown(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null)
    return JSON.stringify(value);
  return kindOf(value);
}
