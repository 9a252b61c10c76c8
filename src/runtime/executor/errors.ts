import { ToolwrightError } from '../../contract/index.js';

/**
 * The errors the executor completes calls with. Each has its own class (and `name`) so a host
 * can tell them apart without reading messages; the messages are written for the model, which
 * reads them as the call's error result.
 */

/** Thrown by `Executor.run` (before anything runs) for a malformed batch: duplicate ids, a call that is not a call. */
export class InvalidBatchError extends ToolwrightError {
  override readonly name = 'InvalidBatchError';
  constructor(message: string) {
    super('invalid-batch', message);
  }
}

/** A call the batch was cancelled before: its tool never ran. Message: `cancelled before it started`. */
export class CallCancelledError extends ToolwrightError {
  override readonly name = 'CallCancelledError';
  constructor() {
    super('call-cancelled', 'cancelled before it started');
  }
}

/**
 * The outcome of a call is ambiguous: the tool may have started, or even finished, but the host
 * has no result. A tool that forwards calls elsewhere (a remote MCP server whose transport broke
 * mid-call) throws it to say so; a timeout is ambiguous too. Only an ambiguous outcome is a
 * reason to `retryAmbiguous`.
 */
export class AmbiguousOutcomeError extends ToolwrightError {
  override readonly name: string = 'AmbiguousOutcomeError';
  /** `code` is `ambiguous-outcome`; subclasses (`CallTimeoutError`) pass their own. */
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'ambiguous-outcome', message, options);
  }
}

/**
 * The call ran past its time limit. Its signal was aborted and the executor stopped waiting; the
 * tool may still be running, so the outcome is ambiguous. Message:
 * `tool "<name>" timed out after <ms> ms`.
 */
export class CallTimeoutError extends AmbiguousOutcomeError {
  override readonly name = 'CallTimeoutError';
  readonly timeoutMs: number;
  constructor(tool: string, timeoutMs: number) {
    super(`tool "${tool}" timed out after ${timeoutMs} ms`, { code: 'call-timeout' });
    this.timeoutMs = timeoutMs;
  }
}

/**
 * `retryAmbiguous` refused to re-run a call because its tool's replay claim is `unknown` (or
 * `keyed` without the first run's key). Message:
 * `the outcome of call <id> (tool "<name>") is unknown and the tool cannot be safely re-run`.
 */
export class UnknownOutcomeError extends ToolwrightError {
  override readonly name = 'UnknownOutcomeError';
  constructor(callId: string, tool: string) {
    super('unknown-outcome', `the outcome of call ${callId} (tool "${tool}") is unknown and the tool cannot be safely re-run`);
  }
}

/**
 * The replay store refused an idempotency key: it was first used with different arguments (or
 * another tool), or the call that first used it is still running.
 */
export class IdempotencyConflictError extends ToolwrightError {
  override readonly name = 'IdempotencyConflictError';
  readonly key: string;
  readonly reason: 'different-arguments' | 'running';
  constructor(key: string, reason: 'different-arguments' | 'running') {
    super(
      'idempotency-conflict',
      reason === 'running'
        ? `idempotency key ${JSON.stringify(key)} is in use by a call that is still running`
        : `idempotency key ${JSON.stringify(key)} was first used with different arguments`,
    );
    this.key = key;
    this.reason = reason;
  }
}

/** Renders a thrown non-Error value for a message: strings quoted, JSON where possible. */
function describeThrown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    try {
      const json = JSON.stringify(value);
      if (typeof json === 'string') return json;
    } catch {
      // Cyclic or otherwise not serialisable: fall through.
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}

/**
 * Turns whatever a tool threw into an `Error`. An `Error` is kept as it is (message, class and
 * `details` untouched); any other value becomes `Error('tool "<name>" threw: <value>')` with the
 * value as its `cause`.
 */
export function errorFromThrown(tool: string, thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(`tool "${tool}" threw: ${describeThrown(thrown)}`, { cause: thrown });
}
