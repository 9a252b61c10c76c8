// ESM resolve hook registered by node20-compat.mjs. It redirects `fs` and `node:fs` to
// fs-globsync-shim.mjs, but only for imports made from inside @modelcontextprotocol/conformance;
// every other module, including our own code, resolves `fs` as usual.
const SHIM = new URL('./fs-globsync-shim.mjs', import.meta.url).href;
const CONFORMANCE = '/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes(CONFORMANCE)) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
