import { readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Module code (for a child `node --input-type=module -e`) that records the URL of every module
 * the process resolves from then on into the array `seen`, through a `node:module` resolve hook.
 * Put it first in the child's code; read `seen` after a short wait (the hook posts from its own
 * thread).
 */
export const RECORD_RESOLVED_MODULES = `
    import { register } from 'node:module';
    const seen = [];
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (url) => seen.push(url));
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(\`
      let port;
      export function initialize(data) { port = data.port; }
      export async function resolve(specifier, context, next) { const r = await next(specifier, context); port.postMessage(r.url); return r; }
    \`), { data: { port: port2 }, transferList: [port2] });`;

/**
 * The toolwright source modules that a list of loaded module URLs holds, each as its path under
 * `src/` without extension (`mcp/transports/http/http-handler`), sorted, once each. A module of
 * the unbundled build (`.../dist/src/x.js`) is itself; a file of the bundle
 * (`.../dist/bundle/...js`) holds the modules its source map names, and an entry point of the
 * bundle (`dist/bundle/runtime/index.js`, not a chunk) is also the module it bundles. Other URLs
 * (dependencies, `node:` builtins) hold none.
 */
export function toolwrightSourcesOf(urls: readonly string[]): string[] {
  const sources = new Set<string>();
  for (const url of urls) {
    if (!url.startsWith('file:')) continue;
    const path = fileURLToPath(url);
    const unbundled = path.lastIndexOf(`${sep}dist${sep}src${sep}`);
    if (unbundled >= 0 && path.endsWith('.js')) {
      sources.add(withoutExtension(path.slice(unbundled + `${sep}dist${sep}src${sep}`.length)));
      continue;
    }
    const bundled = path.lastIndexOf(`${sep}dist${sep}bundle${sep}`);
    if (bundled < 0 || !path.endsWith('.js')) continue;
    const entry = path.slice(bundled + `${sep}dist${sep}bundle${sep}`.length);
    if (!entry.startsWith(`chunks${sep}`)) sources.add(withoutExtension(entry));
    const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) {
      const file = resolve(dirname(path), source);
      const under = file.lastIndexOf(`${sep}src${sep}`);
      if (under >= 0) sources.add(withoutExtension(file.slice(under + `${sep}src${sep}`.length)));
    }
  }
  return [...sources].sort();
}

function withoutExtension(path: string): string {
  return path
    .replace(/\.(js|ts)$/, '')
    .split(sep)
    .join('/');
}
