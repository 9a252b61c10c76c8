import { createServer } from 'node:net';

/**
 * A TCP port on `host` that was free a moment ago (the kernel's choice for port 0, released at
 * once). For a process that cannot listen on port 0 itself, such as HAProxy; another process may
 * take it in between, which the caller then sees as a listen error.
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
