// The host parity suite's tools served over stdio, as a child process (`node parity-stdio-server.js`).
import { serveStdio } from '../../src/index.js';
import { parityHost } from './parity-tools.js';

const { tools, options } = parityHost();
serveStdio({ name: 'parity', version: '1.0.0' }, tools, options).catch((error: unknown) => {
  process.stderr.write(`parity server failed: ${String(error)}\n`);
  process.exitCode = 2;
});
