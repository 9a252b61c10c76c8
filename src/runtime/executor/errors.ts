import { ToolwrightError } from '../../contract/index.js';
export { AmbiguousOutcomeError, CallTimeoutError, errorFromThrown } from '../call/errors.js';

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
 * `retryAmbiguous` refused to re-run a call because its tool's replay claim is `unknown` (or
 * `keyed` without the first run's key). Message:
 * `the outcome of call <id> (tool "<name>") is unknown and the tool cannot be safely re-run`.
 */
export class UnknownOutcomeError extends ToolwrightError {
  override readonly name = 'UnknownOutcomeError';
  constructor(callId: string, tool: string) {
    super(
      'unknown-outcome',
      `the outcome of call ${callId} (tool "${tool}") is unknown and the tool cannot be safely re-run`,
    );
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
