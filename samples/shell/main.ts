import { serveStdio } from '../../src/index.js';
import { guardedShell } from './index.js';

/**
 * Serves the shell sample over stdio: `node dist/samples/shell/main.js`. Each client gets its
 * own simulated shell session; writes outside `/etc` are asked through the client's elicitation
 * (a client without elicitation is denied), writes under `/etc` are refused.
 */
const shell = guardedShell();
serveStdio({ name: 'toolwright-shell-sample', version: '0.1.0' }, shell.tools, shell.options).catch(
  (error: unknown) => {
    process.stderr.write(`shell sample: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
