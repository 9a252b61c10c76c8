import type { Annotations } from '../../contract/index.js';

/**
 * A permission class of a consumed tool: `read`, `write`, any class the host names itself, or
 * `""` (unclassified). Unclassified is what an untrusted server's tool gets; the consumer's
 * default policy denies it (see `consumerPolicy`).
 */
export type ToolPermission = string;

/** MCP's `ToolAnnotations` as a server lists them (every member optional, any JSON possible). */
export interface ListedAnnotations {
  readonly title?: unknown;
  readonly readOnlyHint?: unknown;
  readonly destructiveHint?: unknown;
  readonly idempotentHint?: unknown;
  readonly openWorldHint?: unknown;
}

/** What the permission mapping needs to know about the host's choice for one tool. */
export interface TrustOptions {
  /** The host's explicit permission for the tool; it always wins when given (`""` included). */
  readonly permission?: ToolPermission;
  /**
   * Lets the server's `readOnlyHint` and `destructiveHint` classify the tool. Set it only after
   * the host has verified who the server is and how it is configured: annotations are hints a
   * server states about itself, never authorization.
   */
  readonly trustServerAnnotations?: boolean;
}

/**
 * The permission of a consumed tool, by the seed's precedence:
 * 1. an explicit host `permission` wins, whatever the server says;
 * 2. else, without `trustServerAnnotations`, `""` (unclassified: the server's claims are ignored);
 * 3. else, trusted: `readOnlyHint: true` gives `read`; else `destructiveHint: true` gives `write`;
 *    else `""`. A hint counts only when it is the JSON value `true`: inside a present annotations
 *    block a missing `destructiveHint` reads as false for this mapping (not MCP's default of
 *    true), so a trusted tool that states no hint at all stays unclassified.
 */
export function permissionOf(annotations: ListedAnnotations | undefined, options: TrustOptions): ToolPermission {
  if (options.permission !== undefined) return options.permission;
  if (options.trustServerAnnotations !== true) return '';
  if (annotations?.readOnlyHint === true) return 'read';
  if (annotations?.destructiveHint === true) return 'write';
  return '';
}

/**
 * The contract annotations of a listed tool, read as MCP defines its hints: no block means
 * unstated (`undefined`); inside a block, a missing `readOnlyHint` or `idempotentHint` is false
 * and a missing `destructiveHint` or `openWorldHint` is true. A hint of any type but boolean
 * reads as missing. `title` is kept when it is a non-empty string. These are what the server
 * claims; they classify nothing (see `permissionOf`).
 */
export function annotationsOfListed(block: ListedAnnotations | undefined): Annotations | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const flag = (value: unknown, missing: boolean): boolean => (typeof value === 'boolean' ? value : missing);
  const annotations: {
    title?: string;
    readOnly: boolean;
    destructive: boolean;
    idempotent: boolean;
    openWorld: boolean;
  } = {
    readOnly: flag(block.readOnlyHint, false),
    destructive: flag(block.destructiveHint, true),
    idempotent: flag(block.idempotentHint, false),
    openWorld: flag(block.openWorldHint, true),
  };
  if (typeof block.title === 'string' && block.title !== '') annotations.title = block.title;
  return Object.freeze(annotations);
}
