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
