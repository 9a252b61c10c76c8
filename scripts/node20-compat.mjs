// Loads the conformance CLI on Node 20 without touching node_modules.
//
// @modelcontextprotocol/conformance 0.1.16 imports `globSync` from `fs`, which Node 20 lacks, so
// the whole CLI fails to load ("does not provide an export named 'globSync'") although only its
// `tier-check` command uses it. A `--require` CommonJS shim cannot fix an ESM named import; this
// module registers an ESM resolve hook that hands that package (and only that package) a `fs`
// module with a `globSync` export. Use it as:
//
//   node --import ./scripts/node20-compat.mjs node_modules/@modelcontextprotocol/conformance/dist/index.js ...
//
// On Node >= 22, where `fs.globSync` exists, the shim re-exports the real function unchanged.
import { register } from 'node:module';

register('./node20-compat-hooks.mjs', import.meta.url);
