import type { Writable } from 'node:stream';

/**
 * Reroutes every later `stdout.write` call (and so `console.log`, `console.info`,
 * `console.debug`, `console.dir`, which write through it) to `stderr`, keeping stdout for
 * protocol messages only. A transport that must still write to stdout captures the original
 * `write` method before the guard is installed (`HardenedStdioTransport` does). Returns the
 * function that removes the guard; removing it twice, or after someone else replaced `write`
 * again, leaves the stream alone.
 */
export function guardStdout(stdout: Writable, stderr: Writable): () => void {
  const original = stdout.write;
  const redirect = function (this: unknown, ...args: unknown[]): boolean {
    return (stderr.write as (...a: unknown[]) => boolean).apply(stderr, args);
  } as Writable['write'];
  stdout.write = redirect;
  return () => {
    if (stdout.write === redirect) stdout.write = original;
  };
}
