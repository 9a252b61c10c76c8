import { HttpException } from '@nestjs/common';
import { ToolError } from '../contract/index.js';

/**
 * What a tool call's failure becomes once Nest's exception filters had their turn and none of
 * them answered: an `HttpException` (a guard's `ForbiddenException`, a tool's
 * `NotFoundException('no such order')`) becomes a `ToolError` whose message is the exception's
 * response message (a string, or a list of strings joined with `; ` as `ValidationPipe` makes
 * them), else its `message`, so the model reads it as an `isError` result. Anything else is
 * returned unchanged, and the MCP edge shows it as it shows every thrown error (its message,
 * never its stack).
 */
export function mappedFailure(thrown: unknown): unknown {
  if (!(thrown instanceof HttpException)) return thrown;
  return new ToolError(httpExceptionText(thrown), { cause: thrown });
}

function httpExceptionText(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string' && response !== '') return response;
  if (typeof response === 'object' && response !== null) {
    const message = (response as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
    if (Array.isArray(message) && message.length > 0 && message.every((item) => typeof item === 'string'))
      return message.join('; ');
  }
  return exception.message;
}

/** True for an RxJS-style observable (what an exception filter or interceptor may return). */
function isObservable(
  value: unknown,
): value is { subscribe(observer: { next(v: unknown): void; error(e: unknown): void; complete(): void }): unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { subscribe?: unknown }).subscribe === 'function' &&
    typeof (value as { pipe?: unknown }).pipe === 'function'
  );
}

/** The last value an observable emits (`undefined` when it completes empty); a plain value as it is. */
export function settled(value: unknown): Promise<unknown> {
  if (!isObservable(value)) return Promise.resolve(value);
  return new Promise((resolve, reject) => {
    let last: unknown = undefined;
    value.subscribe({ next: (item) => (last = item), error: reject, complete: () => resolve(last) });
  });
}
