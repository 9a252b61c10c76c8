import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../src/index.js';

/**
 * A folder the file tools work in. Every path a model sends is relative to it, and a path that
 * leads outside it (`..`, an absolute path elsewhere, a symbolic link pointing out) is refused
 * with `path "<given>" is outside the workspace`. It never follows a path before checking it.
 */
export class Workspace {
  readonly root: string;

  constructor(root: string) {
    if (typeof root !== 'string' || root === '')
      throw new TypeError('Workspace needs the root folder, got ' + JSON.stringify(root));
    this.root = path.resolve(root);
  }

  /**
   * Resolves `given` inside the root and returns the absolute path. Refuses a NUL byte, a path
   * outside the root, and a path whose nearest existing ancestor (after symbolic links) is
   * outside the real root.
   */
  async resolve(given: string): Promise<string> {
    if (given.includes('\u0000')) throw new ToolError(`path ${JSON.stringify(given)} contains a NUL byte`);
    const absolute = path.resolve(this.root, given);
    if (!isInside(this.root, absolute)) throw new ToolError(`path ${JSON.stringify(given)} is outside the workspace`);
    const realRoot = await realpath(this.root);
    const existing = await nearestExisting(absolute);
    if (existing !== undefined && !isInside(realRoot, existing))
      throw new ToolError(`path ${JSON.stringify(given)} is outside the workspace (through a symbolic link)`);
    return absolute;
  }

  /** The path of `absolute` relative to the root, with `/` separators (`.` for the root itself). */
  relative(absolute: string): string {
    const relative = path.relative(this.root, absolute);
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The real path of `absolute` or of its nearest existing ancestor, or `undefined` if none exists. */
async function nearestExisting(absolute: string): Promise<string | undefined> {
  let current = absolute;
  for (let hops = 0; hops < 4096; hops++) {
    try {
      const real = await realpath(current);
      return current === absolute ? real : path.join(real, path.relative(current, absolute));
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return undefined;
      current = parent;
    }
  }
  return undefined;
}
