import { isJsonObject } from '../../contract/index.js';
import { TOOL_META_KEY } from '../server/constants.js';
import type { ExecutionMode, ListedTool } from './options.js';

/** The scheduling properties of a consumed tool. */
export interface ExecutionClaims {
  sequential?: true;
  barrier?: true;
  resource?: string;
}

/** What the server's `_meta[TOOL_META_KEY]` claims, fields of the wrong type read as unset. */
export interface ListedClaims {
  readonly facts: boolean;
  readonly replay: boolean;
  readonly sequential: boolean;
  readonly barrier: boolean;
  readonly resource: string;
}

/** Reads a listed tool's claims; a tool without the key claims nothing. */
export function claimsOf(tool: ListedTool): ListedClaims {
  const meta = isJsonObject(tool._meta) ? tool._meta[TOOL_META_KEY] : undefined;
  const claims = isJsonObject(meta) ? meta : {};
  return {
    facts: claims.facts === true,
    replay: claims.replay === true,
    sequential: claims.sequential === true,
    barrier: claims.barrier === true,
    resource: typeof claims.resource === 'string' ? claims.resource : '',
  };
}

/**
 * How a consumed tool is scheduled by the executor:
 * 1. an explicit mode wins: `parallel` (nothing set), `sequential` (`sequential: true`: a batch
 *    holding it runs one call at a time, in order) or `exclusive` (`barrier: true`: everything
 *    before it completes, it runs alone, nothing after starts until it ends);
 * 2. else, when the host trusts claims and the server offers facts (`claims` given), the
 *    server's listed claims are the tool's scheduling claims, in place of the permission-derived
 *    default: `barrier` (listed with `sequential`, read as a barrier alone), else `sequential`,
 *    else `resource` (a tool of a trusted server that claims none of them runs with none, in
 *    parallel, whatever its permission);
 * 3. else `read` runs in parallel and every other permission (`write`, unclassified, ...) as
 *    `sequential`.
 */
export function executionOf(
  mode: ExecutionMode | undefined,
  permission: string,
  claims: ListedClaims | undefined,
): ExecutionClaims {
  if (mode === 'parallel') return {};
  if (mode === 'sequential') return { sequential: true };
  if (mode === 'exclusive') return { barrier: true };
  if (claims !== undefined) {
    if (claims.barrier) return { barrier: true };
    if (claims.sequential) return { sequential: true };
    return claims.resource === '' ? {} : { resource: claims.resource };
  }
  return permission === 'read' ? {} : { sequential: true };
}
