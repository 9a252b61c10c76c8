import { validationMetadataOf, type ValidationMetadata, ValidationTypes } from './sources.js';

/** True for the rule class-validator's `@IsOptional()` records. */
export function isOptionalRule(metadata: ValidationMetadata): boolean {
  return metadata.type === ValidationTypes.CONDITIONAL_VALIDATION && metadata.name === 'isOptional';
}

/**
 * The names of the `@IsOptional()` properties of `dto` (inherited ones included). Such a
 * property may be left out or be `null`; the generated schema admits both, and the validation
 * pipeline drops the `null` before it builds the DTO, so the tool sees `undefined` (or the
 * property's initialiser). Returns an empty set for anything that is not a class.
 */
export function optionalPropertiesOf(dto: Function): ReadonlySet<string> {
  const names = new Set<string>();
  if (typeof dto !== 'function') return names;
  for (const metadata of validationMetadataOf(dto)) {
    if (isOptionalRule(metadata)) names.add(metadata.propertyName);
  }
  return names;
}
