import type { ToolRecord } from './result.js';

/**
 * The base class of every error toolwright throws or returns across its API. `code` is a stable
 * kebab-case string that names the kind of problem and never changes meaning: branch on it, never
 * on the message, which is written for people (and models) and may be reworded.
 *
 * Misuse of an option or a decorator is a `TypeError` or `RangeError` instead (a programming
 * mistake, not a run-time outcome); those carry a `code` too (`DecoratorError`: `invalid-decorator`).
 */
export class ToolwrightError extends Error {
  override readonly name: string = 'ToolwrightError';
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/**
 * Stable codes for the problems `compile` finds. Each code names one kind of mistake and never
 * changes meaning; messages may be reworded, codes may not.
 */
export type ContractIssueCode =
  | 'duplicate-name'
  | 'invalid-name'
  | 'missing-description'
  | 'missing-execute'
  | 'missing-tool-decorator'
  | 'unknown-property-type'
  | 'array-item-type'
  | 'reflect-metadata-missing'
  | 'invalid-args-class'
  | 'invalid-schema'
  | 'resolve-failed'
  | 'schema-lint'
  | 'missing-resource-decorator'
  | 'missing-prompt-decorator'
  | 'missing-read'
  | 'invalid-uri'
  | 'missing-messages'
  | 'duplicate-uri'
  | 'invalid-template-variable'
  | 'invalid-prompt-argument'
  | 'unknown-completion-argument'
  | 'not-applicable-claim'
  | 'conflicting-claims'
  | 'invalid-claim';

/** One problem found while compiling, with where it is and how to fix it. */
export interface ContractIssue {
  readonly code: ContractIssueCode;
  /** The class the problem is in, or `""` when it concerns the set of tools. */
  readonly className: string;
  /** The member (property or method) the problem is on, when there is one. */
  readonly member?: string;
  /** A full sentence naming the problem and its fix. */
  readonly message: string;
}

/**
 * Thrown by `compile` with every problem it found, so nothing is half-registered. The message
 * lists each issue on its own line; `issues` holds them with their codes, and `code` is the code
 * of the first issue (handy when there is only one).
 */
export class ContractError extends ToolwrightError {
  override readonly name = 'ContractError';
  declare readonly code: ContractIssueCode;
  readonly issues: readonly ContractIssue[];

  /**
   * `subject` names what was compiled in the message (default `the tool contract`; `compilePrompts`
   * says `the prompts`).
   */
  constructor(issues: readonly ContractIssue[], subject = 'the tool contract') {
    if (issues.length === 0) throw new TypeError('ContractError needs at least one issue');
    const lines = issues.map((issue) => `  - [${issue.code}] ${issue.message}`);
    super(
      issues[0]!.code,
      `toolwright: ${issues.length} problem${issues.length === 1 ? '' : 's'} in ${subject}:\n${lines.join('\n')}`,
    );
    this.issues = Object.freeze([...issues]);
  }
}

/**
 * Thrown at decoration time when a decorator is misused (wrong target or bad argument). Its
 * message names the decorator and the class (and member) it was applied to, e.g.
 * `@Tool() on class FooTool: "description" is required and must be a string, got nothing`.
 * A `TypeError` (a programming mistake), with `code` `invalid-decorator`.
 */
export class DecoratorError extends TypeError {
  override readonly name = 'DecoratorError';
  readonly code = 'invalid-decorator';
}

/** One argument problem, at a JSON pointer into the arguments (`""` is the whole object). */
export interface ArgumentProblem {
  readonly pointer: string;
  readonly message: string;
}

/**
 * Raised when a call's arguments do not satisfy the tool's schema or constraints. Its message
 * is `invalid arguments: ` followed by every problem as `<pointer>: <message>`, joined by `; `,
 * so a model can read and fix them all at once.
 */
export class InvalidArgumentsError extends ToolwrightError {
  override readonly name = 'InvalidArgumentsError';
  readonly problems: readonly ArgumentProblem[];

  constructor(problems: readonly ArgumentProblem[]) {
    const listed = problems.map((p) => (p.pointer === '' ? p.message : `${p.pointer}: ${p.message}`));
    super('invalid-arguments', `invalid arguments: ${listed.join('; ')}`);
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A failure a tool reports on purpose, with optional `details` for the host and an optional
 * `code` of the tool's own (`tool-error` when none is given). Any thrown error becomes an error
 * result; this class only adds the details and the code.
 */
export class ToolError extends ToolwrightError {
  override readonly name = 'ToolError';
  readonly details?: unknown;
  /** A record of the failed call, served under the record key as a successful call's would be. */
  readonly record?: ToolRecord;

  constructor(
    message: string,
    options: { details?: unknown; cause?: unknown; code?: string; record?: ToolRecord } = {},
  ) {
    super(options.code ?? 'tool-error', message, options);
    if (options.details !== undefined) this.details = options.details;
    if (options.record !== undefined) this.record = options.record;
  }
}

/** A call named a tool the host does not serve. Message: `unknown tool "<name>"`. Code `unknown-tool`. */
export class UnknownToolError extends ToolwrightError {
  override readonly name = 'UnknownToolError';
  readonly tool: string;
  constructor(tool: string) {
    super('unknown-tool', `unknown tool ${JSON.stringify(tool)}`);
    this.tool = tool;
  }
}

/**
 * A tool's output broke the contract: it is not a tool output at all (`tool "x" returned an
 * invalid output: a result object needs a "content" array`), or (the subclass
 * `OutputSchemaMismatchError`) its structured content misses the tool's output schema. Every
 * host fails the call with it, the same way. Code `invalid-output`.
 */
export class InvalidOutputError extends ToolwrightError {
  override readonly name: string = 'InvalidOutputError';
  constructor(message: string, options?: { code?: string }) {
    super(options?.code ?? 'invalid-output', message);
  }
}

/**
 * A tool's structured result does not match its output schema (or is missing). Message:
 * `structured content does not match the output schema: <problems>`. Code
 * `output-schema-mismatch`; an `InvalidOutputError` too.
 */
export class OutputSchemaMismatchError extends InvalidOutputError {
  override readonly name = 'OutputSchemaMismatchError';
  constructor(message: string) {
    super(message, { code: 'output-schema-mismatch' });
  }
}

/**
 * A transport failed: a connection closed, a peer could not be reached, a message could not be
 * written. The message names what failed (and, for a consumed tool, the server and the tool).
 * Code `transport-failed`.
 */
export class TransportError extends ToolwrightError {
  override readonly name = 'TransportError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('transport-failed', message, options);
  }
}
