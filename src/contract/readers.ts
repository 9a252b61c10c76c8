import type { CallContext } from './context.js';
import { asError, kindOf } from '../util/describe.js';
import type { JsonObject } from './json.js';
import type { ToolFacts, ToolReplay, ContractTool } from './tool.js';

/**
 * Readers apply the contract's defaults, so a host asks once and never learns how a tool was
 * built. None of them runs `execute`.
 */

/** True when the tool must run alone (and the whole batch one call at a time). */
export function isSequential(tool: ContractTool): boolean {
  return tool.sequential === true;
}

/** True when the tool splits its batch. */
export function isBarrier(tool: ContractTool): boolean {
  return tool.barrier === true;
}

/**
 * The tool's resource key, or `""` for none. A sequential or barrier tool has none: it already
 * runs alone, so its resource is ignored.
 */
export function resourceOf(tool: ContractTool): string {
  if (isSequential(tool) || isBarrier(tool)) return '';
  return typeof tool.resource === 'string' ? tool.resource : '';
}

/** True when the tool claims to be read-only. */
export function isReadOnly(tool: ContractTool): boolean {
  return tool.annotations?.readOnly === true;
}

/** True when the tool makes the facts claim. Readable without asking. */
export function isFactual(tool: ContractTool): boolean {
  return typeof tool.facts === 'function';
}

/** True when the tool states a replay claim (fixed or per call). */
export function claimsReplay(tool: ContractTool): boolean {
  return tool.replay !== undefined;
}

const REPLAYS: ReadonlySet<string> = new Set(['safe', 'keyed', 'unknown']);

/**
 * The tool's replay answer for one call: `unknown` when absent, when the answer is not one of
 * `safe`, `keyed`, `unknown`, or when computing it throws.
 */
export async function replayOf(tool: ContractTool, args: JsonObject, ctx: CallContext): Promise<ToolReplay> {
  const claim = tool.replay;
  if (claim === undefined) return 'unknown';
  let answer: unknown = claim;
  if (typeof claim === 'function') {
    try {
      answer = await claim(args, ctx);
    } catch {
      return 'unknown';
    }
  }
  return typeof answer === 'string' && REPLAYS.has(answer) ? (answer as ToolReplay) : 'unknown';
}

/** The outcome of asking for facts: no claim, the facts, or the error in their place. */
export type FactsAnswer =
  | { readonly claimed: false }
  | { readonly claimed: true; readonly facts: ToolFacts }
  | { readonly claimed: true; readonly error: Error };

/**
 * Asks the tool's facts claim for one call. A tool without `facts` answers `{claimed: false}`
 * (it is its own one fact). A throw, or an answer that is not a facts object, becomes
 * `{claimed: true, error}`, on which a policy must never allow. `calls: null` and `calls: []`
 * are kept apart exactly as the tool gave them; an absent `calls` reads as `null`.
 */
export async function factsOf(tool: ContractTool, args: JsonObject, ctx: CallContext): Promise<FactsAnswer> {
  if (typeof tool.facts !== 'function') return { claimed: false };
  let facts: unknown;
  try {
    facts = await tool.facts(args, ctx);
  } catch (err) {
    return { claimed: true, error: asError(err) };
  }
  if (typeof facts !== 'object' || facts === null || Array.isArray(facts)) {
    return {
      claimed: true,
      error: new Error(`tool "${tool.name}": facts must return an object with "calls", got ${kindOf(facts)}`),
    };
  }
  const given = facts as { calls?: unknown; rewrite?: unknown };
  if (given.calls !== undefined && given.calls !== null && !Array.isArray(given.calls)) {
    return { claimed: true, error: new Error(`tool "${tool.name}": facts "calls" must be an array or null`) };
  }
  const normalised: ToolFacts =
    given.calls === undefined ? { ...(facts as ToolFacts), calls: null } : (facts as ToolFacts);
  return { claimed: true, facts: normalised };
}
