import { ToolwrightError } from '../../contract/index.js';

/**
 * An interceptor refused a call before it ran. Message: `call refused: <reason>`, or
 * `call refused by "<interceptor>": <reason>` when the interceptor has a name.
 */
export class CallRefusedError extends ToolwrightError {
  override readonly name = 'CallRefusedError';
  readonly interceptor: string | undefined;
  readonly reason: string;

  constructor(reason: string, interceptor?: string) {
    super(
      'call-refused',
      interceptor === undefined || interceptor === ''
        ? `call refused: ${reason}`
        : `call refused by ${JSON.stringify(interceptor)}: ${reason}`,
    );
    this.interceptor = interceptor;
    this.reason = reason;
  }
}

/**
 * An interceptor chose to run with the tool's rewrite, but there is none to run with. Message:
 * `cannot run with a rewrite: tool "<name>" claims no rewrite for these arguments`, or
 * `cannot run with a rewrite: tool "<name>" could not state its facts (<why>)`.
 */
export class RewriteUnavailableError extends ToolwrightError {
  override readonly name = 'RewriteUnavailableError';
  constructor(message: string) {
    super('rewrite-unavailable', message);
  }
}

/** An interceptor broke its contract (a bad answer from `before` or `after`); the message names it and the answer. */
export class InterceptorError extends ToolwrightError {
  override readonly name = 'InterceptorError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('interceptor-failed', message, options);
  }
}
