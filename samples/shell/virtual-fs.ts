import path from 'node:path';
import { ToolError } from '../../src/index.js';

/** Bounds that keep a session's file system small: files, folders, and characters per file. */
export const FS_LIMITS = Object.freeze({ entries: 1_000, fileChars: 100_000 });

/**
 * An in-memory POSIX-like file system for one shell session: folders and UTF-8 text files under
 * `/`, nothing else (no links, no permissions of its own; the permission policy decides who may
 * do what). Paths are absolute after `resolve`. Registries are `Map`s and `Set`s, so a path like
 * `/__proto__` is just a name. Failures are `ToolError`s the model can read.
 */
export class VirtualFs {
  private readonly folders = new Set<string>(['/']);
  private readonly files = new Map<string, string>();

  /** Resolves `given` against `cwd` into a normalised absolute path (`..` cannot climb above `/`). */
  static resolve(cwd: string, given: string): string {
    if (given.includes('\u0000')) throw new ToolError(`path ${JSON.stringify(given)} contains a NUL byte`);
    return path.posix.resolve(cwd, given);
  }

  isFolder(at: string): boolean {
    return this.folders.has(at);
  }

  isFile(at: string): boolean {
    return this.files.has(at);
  }

  /** Reads a file; throws `no such file: <path>` or `<path> is a folder`. */
  read(at: string): string {
    const content = this.files.get(at);
    if (content !== undefined) return content;
    throw new ToolError(this.folders.has(at) ? `${at} is a folder` : `no such file: ${at}`);
  }

  /** Writes (or appends to) a file whose folder exists; throws when it cannot. */
  write(at: string, content: string, append = false): void {
    if (this.folders.has(at)) throw new ToolError(`${at} is a folder`);
    if (!this.folders.has(path.posix.dirname(at))) throw new ToolError(`no such folder: ${path.posix.dirname(at)}`);
    const next = append ? (this.files.get(at) ?? '') + content : content;
    if (next.length > FS_LIMITS.fileChars)
      throw new ToolError(`${at} would hold ${next.length} characters; the limit is ${FS_LIMITS.fileChars}`);
    if (!this.files.has(at)) this.checkRoom();
    this.files.set(at, next);
  }

  /** Makes a folder (and its parents with `parents`); an existing folder is fine. */
  mkdir(at: string, parents = false): void {
    if (this.files.has(at)) throw new ToolError(`${at} is a file`);
    if (this.folders.has(at)) return;
    const parent = path.posix.dirname(at);
    if (!this.folders.has(parent)) {
      if (!parents) throw new ToolError(`no such folder: ${parent}`);
      this.mkdir(parent, true);
    }
    this.checkRoom();
    this.folders.add(at);
  }

  /** The names in a folder, folders with a trailing `/`, sorted. */
  list(at: string): string[] {
    if (!this.folders.has(at)) throw new ToolError(this.files.has(at) ? `${at} is a file` : `no such folder: ${at}`);
    const prefix = at === '/' ? '/' : `${at}/`;
    const names: string[] = [];
    for (const folder of this.folders)
      if (folder !== at && folder.startsWith(prefix) && !folder.slice(prefix.length).includes('/'))
        names.push(`${folder.slice(prefix.length)}/`);
    for (const file of this.files.keys())
      if (file.startsWith(prefix) && !file.slice(prefix.length).includes('/')) names.push(file.slice(prefix.length));
    return names.sort();
  }

  private checkRoom(): void {
    if (this.folders.size + this.files.size >= FS_LIMITS.entries)
      throw new ToolError(`the session's file system is full (${FS_LIMITS.entries} entries)`);
  }
}
