import type { PermissionPolicy } from '../../runtime/index.js';
import type { ConsumerPolicyOptions } from './policy.js';
import type { ToolPermission } from './trust.js';
import type { HostElicitor } from './upstream.js';

/** How a consumed tool runs beside others in a batch: see `executionOf`. */
export type ExecutionMode = 'parallel' | 'sequential' | 'exclusive';

/** A tool as the server listed it (the MCP `Tool` definition, any JSON kept as given). */
export interface ListedTool {
  readonly name: string;
  readonly [key: string]: unknown;
}

/** A value for every tool, or one chosen per listed tool (`undefined`: as if not given). */
export type PerTool<T> = T | ((tool: ListedTool) => T | undefined);

/** How `connectTools` and `connectServer` turn a server's tools into contract tools. */
export interface ConsumeOptions {
  /** The server's name in errors; default: the name it gave at `initialize`, else `mcp`. */
  readonly server?: string;
  /** Put before every tool's name (e.g. `files.`); the result must still be a valid tool name. */
  readonly prefix?: string;
  /** The host's explicit permission class; it always wins over anything the server says. */
  readonly permission?: PerTool<ToolPermission>;
  /**
   * Lets the server's hints classify its tools (`readOnlyHint` → `read`, else `destructiveHint`
   * → `write`). Annotations are hints a server states about itself, never authorization: set this
   * only after the host verified who the server is and how it is configured.
   */
  readonly trustServerAnnotations?: boolean;
  /**
   * Honours the server's `_meta` claims (sequential, barrier, resource, facts, replay), and only
   * when the server advertised the facts capability. Off by default: a server's claims then change
   * nothing.
   */
  readonly trustClaims?: boolean;
  /** The host's explicit execution mode; it wins over the permission and any claim. */
  readonly executionMode?: PerTool<ExecutionMode>;
  /** A time limit per call in milliseconds (the host aborts the call and the server is told). */
  readonly timeoutMs?: PerTool<number>;
  /**
   * Projects results to the seed's model-facing text, cut to this many characters (see
   * `projectResult`); 0 or less projects without cutting. Leave it out to keep the server's
   * content parts as they are (what a proxy wants).
   */
  readonly maxLLMChars?: number;
  /**
   * The permission policy every call passes: a `PermissionPolicy` of the host's, or the options
   * of `consumerPolicy` (the default, `{}`: read allowed, anything else denied unless a rule or the
   * host's own question allows it). `null` checks nothing here: each tool then states its
   * requirement in `requires`, which the call core of whichever host runs it checks with that
   * host's `policy` (without one, nothing is granted). `false` checks nothing and states nothing:
   * every call is forwarded as it is (a proxy without a policy of its own, whose clients' servers
   * decide).
   */
  readonly policy?: PermissionPolicy | ConsumerPolicyOptions | null | false;
  /** Answers the server's elicitation; without it a question goes to the calling context (see `Upstream`). */
  readonly elicit?: HostElicitor;
}
