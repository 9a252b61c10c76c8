// A stdio MCP server of the task tools (see task-tools.ts), run as a child process by the task tests.
import { serveStdio } from '../../src/mcp/transports/index.js';
import { taskTools } from './task-tools.js';

serveStdio({ name: 'tasks-stdio', version: '1.0.0' }, taskTools().tools).catch((error: unknown) => {
  process.stderr.write(`fixture failed: ${String(error)}\n`);
  process.exitCode = 2;
});
