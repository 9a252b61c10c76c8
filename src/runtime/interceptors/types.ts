import type { CallContext, ContractTool, FactsAnswer, ToolOutput, ToolResult } from '../../contract/index.js';

/** A call as interceptors see it. */
export interface InterceptedCall {
  /** The tool being called (the one the interceptors wrap). */
  readonly tool: ContractTool;
  /** The arguments the tool will run with: the model's, or the tool's rewrite once one was chosen. */
  readonly args: unknown;
  /** True once an interceptor chose the rewrite. */
  readonly rewritten: boolean;
  readonly ctx: CallContext;
  /**
   * The tool's facts for the model's arguments, asked at most once per call and only when some
   * interceptor wants them (see `factsOf`; non-object arguments give an error answer).
   */
  facts(): Promise<FactsAnswer>;
}

/**
 * What `before` may answer: nothing (go on), `{ action: 'refuse', reason }` (the call fails with
 * `CallRefusedError` and the tool never runs), or `{ action: 'rewrite' }` (run with the
 * arguments the tool's facts offer as `rewrite`; only a tool's own rewrite can replace the
 * model's arguments). Throwing refuses too, with that error.
 */
export type BeforeAnswer =
  | void
  | undefined
  | { readonly action: 'continue' }
  | { readonly action: 'refuse'; readonly reason: string }
  | { readonly action: 'rewrite' };

/**
 * An interceptor around tool calls. `before` runs in the order the interceptors are given,
 * before the tool; `after` runs in reverse order (the first interceptor sees the result last,
 * like middleware) and may return a new output in place of the result, or nothing to keep it.
 * `after` sees results only: a thrown error passes every interceptor unchanged.
 */
export interface Interceptor {
  /** Names the interceptor in refusals and errors. */
  readonly name?: string;
  /** Runs before the tool, in the order the interceptors are given: go on, refuse or rewrite (see `BeforeAnswer`). */
  before?(call: InterceptedCall): BeforeAnswer | Promise<BeforeAnswer>;
  /** Runs after the tool, in reverse order: returns a new output, or nothing to keep the result. */
  after?(
    result: ToolResult,
    call: InterceptedCall,
  ): ToolOutput | void | undefined | Promise<ToolOutput | void | undefined>;
}
