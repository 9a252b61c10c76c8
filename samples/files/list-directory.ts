import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Description, Idempotent, ReadOnly, Tool, ToolError, type CallContext } from '../../src/index.js';
import { globToRegExp, matchesAny } from './glob.js';
import { Workspace } from './workspace.js';

export const SORT_KEYS = ['name', 'size', 'mtime'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** How deep and how much `list_directory` looks. */
export class ListOptions {
  @Description('Descend into sub-folders')
  @IsOptional()
  @IsBoolean()
  recursive?: boolean;

  @Description('How many folder levels to descend when recursive (1 = only the folder itself)')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  maxDepth?: number;

  @Description('Include names starting with a dot')
  @IsOptional()
  @IsBoolean()
  includeHidden?: boolean;

  @Description('Most entries to return')
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5_000)
  limit?: number;
}

/** The arguments of `list_directory`. */
export class ListDirectoryArgs {
  @Description('Folder to list, relative to the workspace root (default: the root)')
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  path?: string;

  @Description('Order of the entries: by name, by size (largest first) or by modification time (newest first)')
  @IsOptional()
  @IsIn(SORT_KEYS)
  sort?: SortKey;

  @Description(
    'Globs the relative paths of files must match, such as "*.ts" or "src/**/*.json" (folders are always listed)',
  )
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(256, { each: true })
  include?: string[];

  @IsOptional()
  @ValidateNested()
  @Type(() => ListOptions)
  options?: ListOptions;
}

/** One entry of a listing. */
export class ListEntry {
  @IsString() path!: string;
  @IsIn(['file', 'directory', 'other']) type!: 'file' | 'directory' | 'other';
  @IsInt() @Min(0) size!: number;
  @Description('Modification time, ISO 8601') @IsString() mtime!: string;
}

/** The structured result of `list_directory`. */
export class Listing {
  @IsString() folder!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => ListEntry) entries!: ListEntry[];
  @Description('True when the limit cut the listing short') @IsBoolean() truncated!: boolean;
}

/**
 * Lists a folder in the workspace, optionally recursively, filtered by globs and sorted. It
 * returns structured content (`Listing`), so a client can read the entries as data.
 */
@Tool({
  name: 'list_directory',
  title: 'List folder',
  description: 'List the entries of a folder in the workspace, with sizes and modification times.',
  args: ListDirectoryArgs,
  result: Listing,
})
@ReadOnly()
@Idempotent()
export class ListDirectory {
  private readonly workspace: Workspace;

  constructor(root: string) {
    this.workspace = new Workspace(root);
  }

  async execute(args: ListDirectoryArgs, ctx: CallContext): Promise<Listing> {
    const folder = await this.workspace.resolve(args.path ?? '.');
    const options = args.options ?? new ListOptions();
    const maxDepth = options.recursive === true ? (options.maxDepth ?? 10) : 1;
    const limit = options.limit ?? 1_000;
    const globs = (args.include ?? []).map(globToRegExp);
    const entries: ListEntry[] = [];
    let truncated = false;
    const pending: Array<{ dir: string; depth: number }> = [{ dir: folder, depth: 1 }];
    while (pending.length > 0 && !truncated) {
      ctx.signal.throwIfAborted();
      const { dir, depth } = pending.shift()!;
      const handle = await opendir(dir).catch((err: NodeJS.ErrnoException) => {
        throw new ToolError(
          err.code === 'ENOTDIR'
            ? `${JSON.stringify(args.path)} is not a folder`
            : `folder ${JSON.stringify(args.path ?? '.')} does not exist`,
        );
      });
      for await (const dirent of handle) {
        if (!options.includeHidden && dirent.name.startsWith('.')) continue;
        const absolute = path.join(dir, dirent.name);
        const relative = this.workspace.relative(absolute);
        const type = dirent.isDirectory() ? 'directory' : dirent.isFile() ? 'file' : 'other';
        if (type === 'directory' && depth < maxDepth) pending.push({ dir: absolute, depth: depth + 1 });
        if (type !== 'directory' && !matchesAny(relative, globs)) continue;
        if (entries.length >= limit) {
          truncated = true;
          break;
        }
        const info = await stat(absolute);
        entries.push({ path: relative, type, size: type === 'file' ? info.size : 0, mtime: info.mtime.toISOString() });
      }
    }
    sortEntries(entries, args.sort ?? 'name');
    return { folder: this.workspace.relative(folder), entries, truncated };
  }
}

function sortEntries(entries: ListEntry[], by: SortKey): void {
  const byName = (a: ListEntry, b: ListEntry): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  if (by === 'name') entries.sort(byName);
  else if (by === 'size') entries.sort((a, b) => b.size - a.size || byName(a, b));
  else entries.sort((a, b) => (a.mtime < b.mtime ? 1 : a.mtime > b.mtime ? -1 : byName(a, b)));
}
