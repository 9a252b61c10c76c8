import { ToolwrightError } from '../../contract/index.js';

/*
 * The errors the call core ends calls with, on every host.
 */

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
  /**
   * `kind` names what timed out in the message: a `tool` by default, a `resource` or a `prompt` on
   * those hosts' reads.
   */
  constructor(tool: string, timeoutMs: number, kind = 'tool') {
    super(`${kind} "${tool}" timed out after ${timeoutMs} ms`, { code: 'call-timeout' });
    this.timeoutMs = timeoutMs;
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
 * value as its `cause` (`kind` names what threw in place of `tool`: a `resource`, a `prompt`).
 */
export function errorFromThrown(tool: string, thrown: unknown, kind = 'tool'): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(`${kind} "${tool}" threw: ${describeThrown(thrown)}`, { cause: thrown });
}
