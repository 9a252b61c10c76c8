import { compile, type ContractTool } from '../../src/index.js';
import { ListDirectory } from './list-directory.js';
import { ReadFile } from './read-file.js';
import { WriteFile } from './write-file.js';

export { ReadFile, ReadFileArgs } from './read-file.js';
export { WriteFile, WriteFileArgs, WRITE_MODES, type WriteMode } from './write-file.js';
export {
  ListDirectory,
  ListDirectoryArgs,
  ListOptions,
  Listing,
  ListEntry,
  SORT_KEYS,
  type SortKey,
} from './list-directory.js';
export { Workspace } from './workspace.js';
export { globToRegExp } from './glob.js';

/** The file tool classes, each constructed with the workspace root. */
export const FILE_TOOL_CLASSES = [ReadFile, WriteFile, ListDirectory] as const;

/**
 * Compiles the file tools for one workspace folder: `read_file`, `write_file` and
 * `list_directory`, every path confined to `root`.
 */
export function fileTools(root: string): readonly ContractTool[] {
  return compile([...FILE_TOOL_CLASSES], { resolve: (cls) => new (cls as new (root: string) => object)(root) });
}
