import { IsString, MaxLength, MinLength } from 'class-validator';
import { Description, Facts, MaxOutput, Resource, Tool, type CallContext, type ToolFacts } from '../../src/index.js';
import { factsOfCommand, parseCommandLine, runCommand, SHELL_COMMANDS } from './commands.js';
import type { ShellSessions } from './sessions.js';

/** The arguments of `shell`. */
export class ShellArgs {
  @Description(
    `One command line: ${SHELL_COMMANDS.join(', ')}; quotes group words; > or >> redirects the output to a file`,
  )
  @IsString()
  @MinLength(1)
  @MaxLength(2_000)
  command!: string;
}

/**
 * Runs one command line in the client's shell session (a simulated, in-memory shell). Its calls
 * share the `shell:session` resource, so the commands of one batch run one after another, in
 * the model's order (`cd` then `ls` sees the new folder). It asks `read` or `write` permission
 * for each path a command touches before acting. Output is bounded to 4,000 characters.
 */
@Tool({
  name: 'shell',
  description:
    'Run one command line in your shell session (cd, pwd, ls, echo, cat, mkdir; > and >> redirect output to a file).',
  args: ShellArgs,
})
@Resource('shell:session')
@MaxOutput({ chars: 4_000 })
export class Shell {
  constructor(private readonly sessions: ShellSessions) {}

  async execute(args: ShellArgs, ctx: CallContext): Promise<string> {
    const session = this.sessions.of(ctx);
    return runCommand(parseCommandLine(args.command), session, ctx);
  }

  /** The files a command line reads and writes, resolved against the session's folder. */
  @Facts()
  facts(args: ShellArgs, ctx: CallContext): ToolFacts {
    return { calls: factsOfCommand(parseCommandLine(args.command), this.sessions.of(ctx).cwd) };
  }
}
