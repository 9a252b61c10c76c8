import type { ContractTool } from '../../contract/index.js';
import type { ToolClaims } from '../../decorators/index.js';

/** A tool's identity and schemas, which `compile` sets itself and no claim can override. */
export const IDENTITY_KEYS = [
  'name',
  'title',
  'description',
  'parameters',
  'outputSchema',
] as const satisfies readonly (keyof ContractTool)[];

/** The claims a contract tool may state: exactly what the claim decorators record (`ToolClaims`). */
export const CLAIM_KEYS = [
  'annotations',
  'sequential',
  'barrier',
  'resource',
  'flow',
  'replay',
  'timeoutMs',
  'maxOutputChars',
  'requires',
  'scopes',
  'task',
] as const satisfies readonly (keyof ToolClaims & keyof ContractTool)[];

/** A tool's methods, which `compile` sets itself and no claim can override. */
export const METHOD_KEYS = ['execute', 'facts', 'close'] as const satisfies readonly (keyof ContractTool)[];

/** Every member of the contract, in the order the contract lists them. */
export const CONTRACT_KEYS = [...IDENTITY_KEYS, ...CLAIM_KEYS, ...METHOD_KEYS] as const;
