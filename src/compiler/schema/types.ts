import type { ContractIssue, JsonObject } from '../../contract/index.js';

/**
 * A class-validator constraint the generated schema cannot express. It is enforced at run time
 * by class-validator after ajv accepted the input, and listed in compile's debug view.
 */
export interface ResidualConstraint {
  readonly className: string;
  readonly property: string;
  /** class-validator's name for the constraint (`isIBAN`, a custom constraint's name, ...). */
  readonly constraint: string;
}

/** What the generator makes of one DTO class. */
export interface GeneratedSchema {
  /** An inline JSON Schema 2020-12 object schema (recursive classes through `$defs`). */
  readonly schema: JsonObject;
  readonly residual: readonly ResidualConstraint[];
  /** Problems found (`unknown-property-type`, `array-item-type`, ...); empty when the schema is sound. */
  readonly issues: readonly ContractIssue[];
}

/** Options of `generateSchema`. */
export interface GenerateSchemaOptions {
  /** Whether the class describes a tool's arguments or its result (wording of messages only). */
  readonly role?: 'arguments' | 'result';
}
