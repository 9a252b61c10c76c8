import { readFile, stat } from 'node:fs/promises';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { Description, Idempotent, ReadOnly, Tool, ToolError, type CallContext } from '../../src/index.js';
import { Workspace } from './workspace.js';

/** The arguments of `read_file`. */
export class ReadFileArgs {
  @Description('Path of the file, relative to the workspace root')
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  path!: string;

  @Description('First line to return, counting from 1')
  @IsOptional()
  @IsInt()
  @Min(1)
  startLine?: number;

  @Description('Most lines to return')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  maxLines?: number = 2_000;
}

/** Files larger than this are refused rather than read into memory. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Reads a UTF-8 text file inside the workspace, optionally a range of lines. A missing file, a
 * folder, a file over 4 MiB and a path outside the workspace are errors the model can read.
 */
@Tool({
  name: 'read_file',
  title: 'Read file',
  description: 'Read a UTF-8 text file in the workspace, optionally a range of lines.',
  args: ReadFileArgs,
})
@ReadOnly()
@Idempotent()
export class ReadFile {
  private readonly workspace: Workspace;

  constructor(root: string) {
    this.workspace = new Workspace(root);
  }

  async execute(args: ReadFileArgs, ctx: CallContext): Promise<string> {
    const file = await this.workspace.resolve(args.path);
    const info = await stat(file).catch(() => undefined);
    if (info === undefined) throw new ToolError(`file ${JSON.stringify(args.path)} does not exist`);
    if (!info.isFile()) throw new ToolError(`${JSON.stringify(args.path)} is not a file`);
    if (info.size > MAX_FILE_BYTES)
      throw new ToolError(
        `file ${JSON.stringify(args.path)} has ${info.size} bytes, more than the ${MAX_FILE_BYTES} this tool reads`,
      );
    const content = await readFile(file, { encoding: 'utf8', signal: ctx.signal });
    if (args.startLine === undefined && args.maxLines === undefined) return content;
    const lines = content.split('\n');
    const start = (args.startLine ?? 1) - 1;
    return lines.slice(start, start + (args.maxLines ?? lines.length)).join('\n');
  }
}
