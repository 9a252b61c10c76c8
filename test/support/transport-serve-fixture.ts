// `serveStdio` over the hand-built tools of transport-serve-tools.ts, run as a child process.
// Probe events go to stderr as `probe: <event>` lines.
import { serveStdio } from '../../src/mcp/transports/index.js';
import { serveTools } from './transport-serve-tools.js';
import { probe } from './probe.js';

serveStdio({ name: 'serve-fixture', version: '1.0.0' }, serveTools(probe)).then(
  () => probe('ready'),
  (error: unknown) => {
    process.stderr.write(`fixture failed: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
