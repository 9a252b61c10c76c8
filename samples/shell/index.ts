import { compile, type ContractTool } from '../../src/index.js';
import {
  createPolicy,
  type AskPermission,
  type CallCoreOptions,
  type PermissionPolicy,
  type StateScope,
} from '../../src/runtime/index.js';
import { ReadFile, WriteFile } from './file-tools.js';
import { ShellSessions } from './sessions.js';
import { Shell } from './shell-tool.js';

export { Shell, ShellArgs } from './shell-tool.js';
export { WriteFile, WriteFileArgs, ReadFile, ReadFileArgs, normalisedPath } from './file-tools.js';
export { ShellSessions, newShellSession, type ShellSession } from './sessions.js';
export { VirtualFs, FS_LIMITS } from './virtual-fs.js';
export { parseCommandLine, factsOfCommand, runCommand, SHELL_COMMANDS, type CommandLine } from './commands.js';

/** Compiles the shell sample's tools (`shell`, `write_file`, `read_file`) over one set of sessions. */
export function shellTools(sessions: ShellSessions = new ShellSessions()): readonly ContractTool[] {
  return compile([Shell, WriteFile, ReadFile], {
    resolve: (cls) => new (cls as new (s: ShellSessions) => object)(sessions),
  });
}

/**
 * The sample's policy: `write` implies `read`; nothing under `/etc` may be written (`system
 * files are read-only`); reading is allowed everywhere; every other write is asked of the user
 * (through `ask` when given, else through the client's elicitation). An "always" answer holds for
 * the session that gave it (`decisionScope`, default per principal, else per session).
 */
export function shellPolicy(
  options: { readonly ask?: AskPermission; readonly decisionScope?: StateScope } = {},
): PermissionPolicy {
  return createPolicy({
    implications: { write: ['read'] },
    rules: [
      { effect: 'deny', path: '/etc/**', capabilities: ['write'], reason: 'system files are read-only' },
      { effect: 'allow', capabilities: ['read'] },
    ],
    ...(options.ask === undefined ? {} : { ask: options.ask }),
    ...(options.decisionScope === undefined ? {} : { decisionScope: options.decisionScope }),
  });
}

/** The shell tools and the host options they are served with. */
export interface GuardedShell {
  readonly tools: readonly ContractTool[];
  readonly options: CallCoreOptions;
}

/**
 * The shell tools as a host serves them: pass `tools` and `options` to any host (`Executor`,
 * `createServer`, `serveStdio`, `serveHttp`), which runs every call under `policy`, with every
 * result bounded (the tools' own `@MaxOutput` first, else `maxOutputChars`, default 10,000).
 */
export function guardedShell(
  options: {
    readonly policy?: PermissionPolicy;
    readonly maxOutputChars?: number;
    readonly sessions?: ShellSessions;
  } = {},
): GuardedShell {
  return {
    tools: shellTools(options.sessions),
    options: { policy: options.policy ?? shellPolicy(), maxOutputChars: options.maxOutputChars ?? 10_000 },
  };
}
