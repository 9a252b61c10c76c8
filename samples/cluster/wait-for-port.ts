import { connect } from 'node:net';

/**
 * Resolves once something accepts TCP connections on `host:port`, trying every 50 ms; rejects
 * with `<what> did not accept connections on <host>:<port> within <ms> ms` after `timeoutMs`,
 * or at once when `gaveUp()` says the process meant to listen has ended.
 */
export async function waitForPort(
  what: string,
  host: string,
  port: number,
  timeoutMs: number,
  gaveUp: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ended = gaveUp();
    if (ended !== undefined)
      throw new Error(`${what} ended before it accepted connections on ${host}:${port}: ${ended}`);
    if (await accepts(host, port)) return;
    if (Date.now() >= deadline)
      throw new Error(`${what} did not accept connections on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => (socket.destroy(), resolve(false)));
  });
}
