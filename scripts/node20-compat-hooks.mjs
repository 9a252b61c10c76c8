// ESM resolve hook registered by node20-compat.mjs. It redirects `fs` and `node:fs` to
// fs-globsync-shim.mjs, but only for imports made from inside the conformance suite (0.1.16 as
// @modelcontextprotocol/conformance, 0.2.0-alpha.11 under the npm alias mcp-conformance-2026);
// every other module, including our own code, resolves `fs` as usual.
const SHIM = new URL('./fs-globsync-shim.mjs', import.meta.url).href;
const CONFORMANCE = ['/@modelcontextprotocol/conformance/', '/mcp-conformance-2026/'];

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && CONFORMANCE.some((dir) => context.parentURL?.includes(dir))) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
