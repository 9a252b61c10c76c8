// A stdio MCP server serving the auth test tools (one of them scoped), for the "stdio is
// unchanged" test: a local process trusts its parent, so no scope is checked and no call has a principal.
import { serveStdio } from '../../src/index.js';
import { AUTH_TOOLS } from './auth-tools.js';

serveStdio({ name: 'auth-stdio', version: '1.0.0' }, AUTH_TOOLS).catch((error: unknown) => {
  process.stderr.write(`fixture failed: ${String(error)}\n`);
  process.exitCode = 2;
});
