import { isBarrier, isSequential, resourceOf, type ContractTool } from '../../contract/index.js';

/**
 * Whose calls one scheduler orders: the calls of one MCP session, of one authenticated principal,
 * or of the whole server. The package's one scope vocabulary (remembered decisions use it too).
 */
export type SchedulingScope = 'session' | 'principal' | 'server';

/**
 * What a call claims about running beside other calls, read from its tool.
 *
 * - `exclusive`: the call runs with no other call of its scheduler in flight, after every call
 *   that arrived before it and before every call that arrives after it. A barrier is exclusive;
 *   online, a sequential tool is exclusive too (a call cannot know what arrives after it).
 * - `resource`: calls with the same non-empty key never overlap and start in arrival order;
 *   `""` for none. Always `""` when `exclusive` (the call already runs alone).
 * - `kind`: why the call is exclusive, for the texts that say what a call waits for.
 */
export interface CallClaims {
  readonly exclusive: boolean;
  readonly resource: string;
  readonly kind: 'barrier' | 'sequential' | 'resource' | 'none';
}

const NONE: CallClaims = Object.freeze({ exclusive: false, resource: '', kind: 'none' });
const BARRIER: CallClaims = Object.freeze({ exclusive: true, resource: '', kind: 'barrier' });
const SEQUENTIAL: CallClaims = Object.freeze({ exclusive: true, resource: '', kind: 'sequential' });

/** Claims for a call that shares nothing: it runs beside any call but an exclusive one. */
export const NO_CLAIMS: CallClaims = NONE;

/** Claims for a call that runs alone (a barrier, or a serial batch's every call). */
export const BARRIER_CLAIMS: CallClaims = BARRIER;

/**
 * The scheduling claims of `tool`, through the contract's readers (so their defaults apply): a
 * barrier is exclusive (`kind: 'barrier'`, whatever else it claims), a sequential tool is
 * exclusive (`kind: 'sequential'`), a tool with a resource key claims that key, and any other
 * tool claims nothing. `undefined` (a call whose tool is unknown) claims nothing. Never runs the
 * tool. The results without a resource are shared frozen objects: compare claims by value,
 * never by identity.
 */
export function schedulingClaimsOf(tool: ContractTool | undefined): CallClaims {
  if (tool === undefined) return NONE;
  if (isBarrier(tool)) return BARRIER;
  if (isSequential(tool)) return SEQUENTIAL;
  const resource = resourceOf(tool);
  return resource === '' ? NONE : { exclusive: false, resource, kind: 'resource' };
}
