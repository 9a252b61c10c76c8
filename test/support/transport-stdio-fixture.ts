// A stdio MCP server for the transport tests, run as a child process with `process.execPath`.
// Environment: MAX_LINE_BYTES, SHUTDOWN_TIMEOUT_MS (numbers). Probe events go to stderr as
// `probe: <event>` lines. The `gate` tool reports `gate started` and answers `gate opened`
// once the process receives SIGUSR2.
import { connectStdio } from '../../src/mcp/transports/index.js';
import { makeTestServer, type ExtraTool } from './transport-test-server.js';
import { probe } from './probe.js';

const gate: ExtraTool = {
  name: 'gate',
  run: () =>
    new Promise((resolve) => {
      process.once('SIGUSR2', () => resolve('gate opened'));
      probe('gate started');
    }),
};
const number = (name: string): number | undefined =>
  process.env[name] === undefined ? undefined : Number(process.env[name]);
const maxLineBytes = number('MAX_LINE_BYTES');
const shutdownTimeoutMs = number('SHUTDOWN_TIMEOUT_MS');

connectStdio(() => makeTestServer(probe, [gate]), {
  ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
  ...(shutdownTimeoutMs !== undefined ? { shutdownTimeoutMs } : {}),
}).then(
  () => probe('ready'),
  (error: unknown) => {
    process.stderr.write(`fixture failed: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
