// `serveStdio` over the interop tool set (edge-interop-tools.ts), run as a child process.
import { serveStdio } from '../../src/mcp/transports/index.js';
import { interopPolicy, interopTools } from './edge-interop-tools.js';

serveStdio({ name: 'interop', version: '1.0.0' }, interopTools(), { policy: interopPolicy() }).catch(
  (error: unknown) => {
    process.stderr.write(`fixture failed: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
