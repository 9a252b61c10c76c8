import type { ContractTool, Principal } from '../../contract/index.js';
import { isScopeToken } from '../../decorators/internal.js';
import { principalOf, type AuthInfoLike } from './principal.js';

/**
 * The scopes of `needed` that `principal` does not hold, in `needed`'s order. Empty when nothing
 * is needed, and when there is no principal: hosts without one (stdio, where a local process
 * trusts its parent; in process; HTTP served without `auth`) do not check scopes.
 */
export function missingScopes(needed: readonly string[] | undefined, principal: Principal | undefined): string[] {
  if (needed === undefined || needed.length === 0 || principal === undefined) return [];
  return needed.filter((scope) => !principal.scopes.includes(scope));
}

/** Whether `principal` may call `tool` as far as scopes go (see `missingScopes`). */
export function mayCall(tool: Pick<ContractTool, 'scopes'>, principal: Principal | undefined): boolean {
  return missingScopes(tool.scopes, principal).length === 0;
}

/**
 * The text of a call refused for scopes: `insufficient_scope: tool "x" needs the scope(s) a b`.
 * The HTTP edge answers such a call `403` before it reaches the server; this text is the
 * tool-call level answer of a server whose transport did not check (an `isError` result).
 */
export function insufficientScopeText(toolName: string, missing: readonly string[]): string {
  return `insufficient_scope: tool ${JSON.stringify(toolName)} needs the scope${missing.length === 1 ? '' : 's'} ${missing.join(' ')}`;
}

/**
 * The scopes of every tool that states some, by name (the gate's `toolScopes`). Throws a
 * `TypeError` naming the tool when its `scopes` is not an array of RFC 6749 scope tokens (a
 * hand-built tool; `@Scopes` checks its own).
 */
export function toolScopesOf(
  served: Iterable<{ readonly tool: Pick<ContractTool, 'name' | 'scopes'> }>,
): ReadonlyMap<string, readonly string[]> {
  const scopes = new Map<string, readonly string[]>();
  for (const { tool } of served) {
    const given: unknown = tool.scopes;
    if (given === undefined) continue;
    if (!Array.isArray(given) || !given.every(isScopeToken)) {
      throw new TypeError(
        `serveHttp: tool ${JSON.stringify(tool.name)}: scopes must be an array of scope names without spaces, quotes or backslashes (RFC 6749), got ${JSON.stringify(given) ?? typeof given}`,
      );
    }
    if (given.length > 0) scopes.set(tool.name, Object.freeze([...given]));
  }
  return scopes;
}

/** The `tools/list` definitions of the tools the request's principal may call (see `mayCall`). */
export function callableDefinitions<D>(
  served: ReadonlyMap<string, { readonly prepared: { readonly tool: ContractTool }; readonly definition: D }>,
  authInfo: AuthInfoLike | undefined,
): D[] {
  const principal = principalOf(authInfo);
  return [...served.values()].filter((s) => mayCall(s.prepared.tool, principal)).map((s) => s.definition);
}

/**
 * The scopes of the tools `live` serves, by name, as the HTTP gate's `toolScopes`: always those of
 * the set served now (see `toolScopesOf`, made again only when the set changes). Checks the set
 * served now at once, and every next set before it is served, so a tool with malformed `scopes`
 * throws here, or refuses the change that adds it.
 */
export function liveToolScopes(live: {
  readonly tools: ReadonlyMap<string, { readonly prepared: { readonly tool: ContractTool } }>;
  addCheck(
    check: (tools: ReadonlyMap<string, { readonly prepared: { readonly tool: ContractTool } }>) => void,
  ): unknown;
}): ReadonlyMap<string, readonly string[]> {
  let seen = live.tools;
  let scopes = scopesOfServed(seen);
  live.addCheck((tools) => void scopesOfServed(tools));
  const current = (): ReadonlyMap<string, readonly string[]> => {
    if (live.tools !== seen) {
      seen = live.tools;
      scopes = scopesOfServed(seen);
    }
    return scopes;
  };
  return {
    get size() {
      return current().size;
    },
    get: (name) => current().get(name),
    has: (name) => current().has(name),
    forEach: (each, thisArg) => current().forEach(each, thisArg),
    entries: () => current().entries(),
    keys: () => current().keys(),
    values: () => current().values(),
    [Symbol.iterator]: () => current()[Symbol.iterator](),
  };
}

function scopesOfServed(
  tools: ReadonlyMap<string, { readonly prepared: { readonly tool: ContractTool } }>,
): ReadonlyMap<string, readonly string[]> {
  return toolScopesOf([...tools.values()].map((served) => ({ tool: served.prepared.tool })));
}
