import { errorText } from '../util/describe.js';
import { helpText, parseArgs, UsageError } from './args.js';
import type { CliIo } from './io.js';
import { CliError } from './cli-error.js';
import { toolwrightVersion } from './version.js';

/**
 * Runs the `toolwright` command with `argv` (the words after the program name) and resolves its
 * exit code: 0 success; 1 a call whose result is an error (or that the server refused); 2 a usage
 * mistake, a module that cannot be loaded or compiled, or an unknown tool. Every failure is one
 * message on stderr, `toolwright: <message>` (usage mistakes add a hint to run --help), never a
 * stack. `serve` resolves only once the server has stopped. Each command's module is imported
 * only when that command runs, so `list` and `call` never load the HTTP stack.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const command = parseArgs(argv);
    switch (command.kind) {
      case 'help':
        io.out(helpText(command.topic));
        return 0;
      case 'version':
        io.out(`${toolwrightVersion()}\n`);
        return 0;
      case 'list':
        return await (await import('./commands/list.js')).listCommand(command, io);
      case 'lint':
        return await (await import('./commands/lint.js')).lintCommand(command, io);
      case 'init':
        return await (await import('./commands/init.js')).initCommand(command, io);
      case 'call':
        return await (await import('./commands/call.js')).callCommand(command, io);
      case 'serve':
        return await (await import('./commands/serve.js')).serveCommand(command, io);
      case 'proxy':
        return await (await import('./commands/proxy.js')).proxyCommand(command, io);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`toolwright: ${error.message}\nRun "toolwright --help" for usage.\n`);
      return 2;
    }
    if (error instanceof CliError) {
      io.err(`toolwright: ${error.message}\n`);
      return error.exitCode;
    }
    io.err(`toolwright: unexpected error: ${errorText(error)}\n`);
    return 1;
  }
}
