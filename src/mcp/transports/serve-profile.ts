import type { ContractTool } from '../../contract/index.js';
import { applySchemaProfile, type SchemaProfile } from '../../compiler/profile/index.js';

/**
 * How the served tools' argument schemas are listed (see `applySchemaProfile`): `exact` by
 * default, `portable` for one schema every provider accepts, or one provider's profile. Calls
 * are still validated against the exact schemas.
 */
export interface ServeProfileOptions {
  readonly schemaProfile?: SchemaProfile;
  /** How many levels of a recursive class a profile lists (1 to 16, default 3). */
  readonly recursionDepth?: number;
}

/** The tools as listed under `options.schemaProfile` (the tools themselves when there is none). */
export function listedUnderProfile(
  tools: readonly ContractTool[],
  options: ServeProfileOptions,
): readonly ContractTool[] {
  return options.schemaProfile === undefined
    ? tools
    : applySchemaProfile(
        tools,
        options.schemaProfile,
        options.recursionDepth === undefined ? {} : { recursionDepth: options.recursionDepth },
      );
}
