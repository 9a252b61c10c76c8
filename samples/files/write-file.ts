import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import {
  Description,
  Destructive,
  Facts,
  Resource,
  Tool,
  ToolError,
  type CallContext,
  type ToolFacts,
} from '../../src/index.js';
import { Workspace } from './workspace.js';

/** How `write_file` treats an existing file. */
export const WRITE_MODES = ['overwrite', 'append', 'create'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

/** The arguments of `write_file`. */
export class WriteFileArgs {
  @Description('Path of the file, relative to the workspace root')
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  path!: string;

  @Description('The text to write (UTF-8)')
  @IsString()
  @MaxLength(1_000_000)
  content!: string;

  @Description('overwrite replaces the file, append adds to its end, create fails if it exists')
  @IsOptional()
  @IsIn(WRITE_MODES)
  mode?: WriteMode = 'overwrite';

  @Description('Create missing parent folders')
  @IsOptional()
  @IsBoolean()
  createFolders?: boolean = false;
}

/**
 * Writes a UTF-8 text file inside the workspace. Calls share the `fs:workspace` resource, so
 * writes of one batch happen one after another, in order. Its facts state that a call amounts
 * to `write{path}`, so a permission policy can decide on the path without running it.
 */
@Tool({
  name: 'write_file',
  title: 'Write file',
  description: 'Write a UTF-8 text file in the workspace (overwrite, append or create).',
  args: WriteFileArgs,
})
@Destructive()
@Resource('fs:workspace')
export class WriteFile {
  private readonly workspace: Workspace;

  constructor(root: string) {
    this.workspace = new Workspace(root);
  }

  async execute(args: WriteFileArgs, ctx: CallContext): Promise<string> {
    const file = await this.workspace.resolve(args.path);
    if (args.createFolders === true) await mkdir(path.dirname(file), { recursive: true });
    const mode = args.mode ?? 'overwrite';
    try {
      if (mode === 'append') await appendFile(file, args.content, 'utf8');
      else
        await writeFile(file, args.content, {
          encoding: 'utf8',
          flag: mode === 'create' ? 'wx' : 'w',
          signal: ctx.signal,
        });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new ToolError(`file ${JSON.stringify(args.path)} already exists (mode "create")`);
      if (code === 'ENOENT')
        throw new ToolError(
          `the folder of ${JSON.stringify(args.path)} does not exist (set createFolders to create it)`,
        );
      if (code === 'EISDIR') throw new ToolError(`${JSON.stringify(args.path)} is a folder`);
      throw err;
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    return `${mode === 'append' ? 'appended' : 'wrote'} ${bytes} byte${bytes === 1 ? '' : 's'} to ${this.workspace.relative(file)}`;
  }

  /** A write amounts to writing its path; nothing else is touched. */
  @Facts()
  facts(args: WriteFileArgs): ToolFacts {
    return { calls: [{ tool: 'write', args: { path: args.path }, text: `write ${args.path}` }] };
  }
}
