import type { ToolRecord } from './result.js';

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
  | 'resolve-failed';

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
export class ContractError extends Error {
  override readonly name = 'ContractError';
  readonly code: ContractIssueCode;
  readonly issues: readonly ContractIssue[];

  constructor(issues: readonly ContractIssue[]) {
    if (issues.length === 0) throw new TypeError('ContractError needs at least one issue');
    const lines = issues.map((issue) => `  - [${issue.code}] ${issue.message}`);
    super(`toolwright: ${issues.length} problem${issues.length === 1 ? '' : 's'} in the tool contract:\n${lines.join('\n')}`);
    this.code = issues[0]!.code;
    this.issues = Object.freeze([...issues]);
  }
}

/** Thrown at decoration time when a decorator is misused (wrong target or bad argument). */
export class DecoratorError extends TypeError {
  override readonly name = 'DecoratorError';
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
export class InvalidArgumentsError extends Error {
  override readonly name = 'InvalidArgumentsError';
  readonly problems: readonly ArgumentProblem[];

  constructor(problems: readonly ArgumentProblem[]) {
    const listed = problems.map((p) => (p.pointer === '' ? p.message : `${p.pointer}: ${p.message}`));
    super(`invalid arguments: ${listed.join('; ')}`);
    this.problems = Object.freeze([...problems]);
  }
}

/**
 * A failure a tool reports on purpose, with optional `details` for the host. Any thrown error
 * becomes an error result; this class only adds the details.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly details?: unknown;
  /** A record of the failed call, served under the record key as a successful call's would be. */
  readonly record?: ToolRecord;

  constructor(message: string, options: { details?: unknown; cause?: unknown; record?: ToolRecord } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.details !== undefined) this.details = options.details;
    if (options.record !== undefined) this.record = options.record;
  }
}
