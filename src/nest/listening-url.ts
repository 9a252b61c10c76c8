import type { AddressInfo } from 'node:net';

/**
 * The URL of the MCP endpoint at `path` on a listening node HTTP server, as `listenHttp` names its
 * own: `http://<address>:<port><path>`, a wildcard address (`0.0.0.0`, `::`) shown as `127.0.0.1`
 * and an IPv6 address in brackets. Throws an `Error` when the server is not listening on a TCP
 * port (the application has not called `listen` yet, or listens on a pipe).
 */
export function listeningUrlOf(server: { address(): AddressInfo | string | null }, path: string): string {
  const address = server.address();
  if (typeof address !== 'object' || address === null) {
    throw new Error(
      'ToolwrightModule: auth needs the URL of this server (its resource): the application does not listen on a TCP port yet; set auth.resource',
    );
  }
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.address.includes(':')
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}${path}`;
}
