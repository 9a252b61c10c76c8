import { readFileSync } from 'node:fs';

let cached: string | undefined;

/**
 * toolwright's own version, read once from its package.json (three levels above this compiled
 * file: `<out>/src/cli/version.js`). Answers `"unknown"` when the file cannot be read.
 */
export function toolwrightVersion(): string {
  if (cached === undefined) {
    try {
      const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
      cached = typeof manifest.version === 'string' ? manifest.version : 'unknown';
    } catch {
      cached = 'unknown';
    }
  }
  return cached;
}
