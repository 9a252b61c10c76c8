import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** How many folders above this file the search for toolwright's package.json goes at most. */
const MAX_LEVELS = 6;

/**
 * toolwright's own version, read once from its package.json: the nearest `package.json` named
 * `toolwright` in this file's folder or a folder above it (this code runs from `dist/src/cli/`
 * unbundled and from `dist/bundle/` or one of its chunk folders bundled). Answers `"unknown"`
 * when no such file can be read.
 */
export function toolwrightVersion(): string {
  if (cached === undefined) {
    cached = 'unknown';
    for (let level = 1; level <= MAX_LEVELS; level++) {
      const manifest = manifestAt(new URL(`${'../'.repeat(level - 1)}package.json`, import.meta.url));
      if (manifest?.name === 'toolwright') {
        if (typeof manifest.version === 'string') cached = manifest.version;
        break;
      }
    }
  }
  return cached;
}

function manifestAt(url: URL): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
