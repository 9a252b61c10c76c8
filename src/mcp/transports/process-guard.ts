import process from 'node:process';
import { errorText } from '../../util/describe.js';

/** The first words of the line logged for a floating rejection. */
export const FLOATING_REJECTION_PREFIX =
  'unhandled rejection (a promise nobody awaited, probably in a tool), the server keeps running';

let installed = false;

/**
 * Keeps the process serving when a tool leaves a rejected promise nobody handles (a "floating"
 * rejection: `void fetch(...)`, a forgotten `await`). Node's default for an unhandled rejection
 * is to end the process, taking every session with it; with this installed, each one is logged
 * as one line, `<FLOATING_REJECTION_PREFIX>: <message>`, through `log` (stderr by default), and
 * the process lives on. The rejection is not tied to any call: the calls are answered as usual.
 *
 * It changes process-wide behaviour, so toolwright installs it only where it owns the process:
 * `serveStdio`, `serveHttp` and the `toolwright` CLI. `createHttpHandler`, `addTools` and the
 * framework integrations never install it (the application decides). It is installed once per
 * process; later calls do nothing. A process that already has an `unhandledRejection` listener
 * of its own keeps it and gets none from here.
 */
export function keepServingOnFloatingRejections(
  log: (message: string) => void = (message) => void process.stderr.write(`toolwright: ${message}\n`),
): void {
  if (installed) return;
  installed = true;
  if (process.listenerCount('unhandledRejection') > 0) return;
  process.on('unhandledRejection', (reason: unknown) => {
    try {
      log(`${FLOATING_REJECTION_PREFIX}: ${oneLine(errorText(reason))}`);
    } catch {
      // A log that cannot be written must not turn a survived rejection into a crash.
    }
  });
}

function oneLine(text: string): string {
  const end = text.indexOf('\n');
  const line = end === -1 ? text : text.slice(0, end);
  return line.length > 500 ? `${line.slice(0, 500)}...` : line;
}
