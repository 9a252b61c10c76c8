/** The most values one completion answer carries (MCP's bound). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * What a client asks to complete: one argument (or template variable), its partial value, and what
 * it already filled in.
 */
export interface CompletionRequest {
  /** The argument's (or variable's) name. */
  readonly argument: string;
  /** What the user typed so far (may be `""`). */
  readonly value: string;
  /** The other arguments already resolved, by name (MCP's `context.arguments`); empty when none. */
  readonly arguments: Readonly<Record<string, string>>;
}

/** A completion answer: up to 100 values, best first; `total` counts every match, `hasMore` says more exist. */
export interface CompletionAnswer {
  readonly values: readonly string[];
  readonly total?: number;
  readonly hasMore?: boolean;
}

/** What a completer may return: the values, or a full answer. */
export type CompletionOutput = readonly string[] | CompletionAnswer;
