import path from 'node:path';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { Description, ReadOnly, Requires, Resource, Tool, type CallContext } from '../../src/index.js';
import type { ShellSessions } from './sessions.js';

/**
 * The permission subject of a path argument: the normalised absolute path, so that
 * `/tmp/../etc/passwd` is checked as `/etc/passwd`, the file it really names.
 */
export const normalisedPath = (args: { path: string }): string => path.posix.normalize(args.path);

/** The arguments of `write_file`. */
export class WriteFileArgs {
  @Description('Absolute path of the file in the session (its folder must exist)')
  @IsString()
  @Matches(/^\//)
  @MaxLength(1_024)
  path!: string;

  @Description('The text to write')
  @IsString()
  @MaxLength(100_000)
  text!: string;

  @Description('Append to the file instead of replacing it')
  @IsOptional()
  @IsBoolean()
  append?: boolean;
}

/**
 * Writes a text file in the client's shell session. It declares its permission: `write` on the
 * normalised path, checked by the policy before `execute` runs at all.
 */
@Tool({ name: 'write_file', description: 'Write a text file in your shell session.', args: WriteFileArgs })
@Resource('shell:session')
@Requires({ capabilities: ['write'], subject: normalisedPath, path: true, label: 'file', reason: 'write the file' })
export class WriteFile {
  constructor(private readonly sessions: ShellSessions) {}

  async execute(args: WriteFileArgs, ctx: CallContext): Promise<string> {
    const at = path.posix.normalize(args.path);
    this.sessions.of(ctx).fs.write(at, args.text, args.append === true);
    return `${args.append === true ? 'appended' : 'wrote'} ${args.text.length} characters to ${at}`;
  }
}

/** The arguments of `read_file`. */
export class ReadFileArgs {
  @Description('Absolute path of the file in the session')
  @IsString()
  @Matches(/^\//)
  @MaxLength(1_024)
  path!: string;
}

/** Reads a text file in the client's shell session; declares `read` on the normalised path. */
@Tool({ name: 'read_file', description: 'Read a text file in your shell session.', args: ReadFileArgs })
@ReadOnly()
@Resource('shell:session')
@Requires({ capabilities: ['read'], subject: normalisedPath, path: true, label: 'file' })
export class ReadFile {
  constructor(private readonly sessions: ShellSessions) {}

  async execute(args: ReadFileArgs, ctx: CallContext): Promise<string> {
    return this.sessions.of(ctx).fs.read(path.posix.normalize(args.path));
  }
}
