/**
 * The benchmark's proxy side: `createProxy` in front of the toolwright echo server (a stdio child
 * of this process), served over stdio, with no policy and no bounds (pure forwarding). Reports
 * its own CPU on SIGUSR2 like the other bench servers.
 */
import { fileURLToPath } from 'node:url';
import { createProxy } from 'toolwright/mcp';
import { reportCpuOnSignal } from './cpu-report.js';

reportCpuOnSignal();

const upstream = fileURLToPath(new URL('./toolwright-echo-server.js', import.meta.url));
createProxy([{ name: 'echo-upstream', command: process.execPath, args: [upstream] }], {
  stderr: 'ignore',
  info: { name: 'proxy-echo', version: '1.0.0' },
})
  .then((proxy) => proxy.serveStdio())
  .catch((error: unknown) => {
    process.stderr.write(`proxy-echo: ${String(error)}\n`);
    process.exit(1);
  });
