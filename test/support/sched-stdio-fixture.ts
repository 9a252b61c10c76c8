// A stdio MCP server for the server-scheduling tests (see sched-tools.ts), run as a child process.
import { serveStdio } from '../../src/mcp/transports/index.js';
import { schedTools } from './sched-tools.js';

serveStdio({ name: 'sched-fixture', version: '1.0.0' }, schedTools()).catch((error: unknown) => {
  process.stderr.write(`fixture failed: ${String(error)}\n`);
  process.exitCode = 2;
});
