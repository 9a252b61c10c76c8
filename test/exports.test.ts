import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import { RECORD_RESOLVED_MODULES } from './support/module-loads.js';

/** The package root's runtime exports, pinned: adding or dropping one is a decision, made here. */
const ROOT_EXPORTS = [
  'Args',
  'Barrier',
  'Complete',
  'ContractError',
  'DecoratorError',
  'Description',
  'Destructive',
  'Facts',
  'Field',
  'Flow',
  'Idempotent',
  'InvalidArgumentsError',
  'MapOf',
  'MaxOutput',
  'OpenWorld',
  'PermissionDeniedError',
  'Prompt',
  'ReadOnly',
  'Replay',
  'Requires',
  'Resource',
  'ResourceNotFoundError',
  'ResourceTemplate',
  'Scopes',
  'Sequential',
  'StaticResource',
  'TaskSupport',
  'Timeout',
  'Tool',
  'ToolError',
  'ToolwrightError',
  'UnionOf',
  'assistantMessage',
  'audio',
  'compile',
  'compilePrompts',
  'compileResources',
  'defineClaims',
  'defineComplete',
  'defineDescription',
  'defineFacts',
  'defineField',
  'defineMapOf',
  'defineMaxOutput',
  'definePrompt',
  'defineRequires',
  'defineResourceTemplate',
  'defineScopes',
  'defineStaticResource',
  'defineTaskSupport',
  'defineTimeout',
  'defineTool',
  'defineUnionOf',
  'embeddedBlob',
  'embeddedText',
  'image',
  'resourceLink',
  'serveHttp',
  'serveStdio',
  'text',
  'userMessage',
];

/**
 * Runs `code` as an ES module in a child Node process at the repository root and returns its
 * stdout. `toolwright` resolves to the published bundle there, or to the unbundled modules with
 * `unbundled`.
 */
async function runModule(code: string, unbundled = false): Promise<string> {
  const outcome = await runProcess(
    process.execPath,
    [...(unbundled ? ['--conditions=toolwright-unbundled'] : []), '--input-type=module', '-e', code],
    { timeoutMs: 30_000, cwd: REPO_ROOT },
  );
  assert.equal(outcome.stderr, '');
  assert.equal(outcome.code, 0);
  return outcome.stdout;
}

test('the package root exports exactly what a tool author needs', async () => {
  const stdout = await runModule(
    "const m = await import('toolwright'); console.log(JSON.stringify(Object.keys(m).sort()));",
  );
  assert.deepEqual(JSON.parse(stdout), ROOT_EXPORTS);
});

test('each subpath loads by name and holds its layer: toolwright/compiler, /runtime, /mcp', async () => {
  const stdout = await runModule(`
    const compiler = await import('toolwright/compiler');
    const runtime = await import('toolwright/runtime');
    const mcp = await import('toolwright/mcp');
    console.log(JSON.stringify({
      compiler: ['compile', 'generateSchema', 'inspectTool', 'formatDefinitions'].map((n) => typeof compiler[n]),
      runtime: ['Executor', 'createPolicy', 'prepareTools', 'runToolCall', 'isSequential', 'createCallContext'].map((n) => typeof runtime[n]),
      mcp: ['createServer', 'serveStdio', 'serveHttp', 'createHttpHandler', 'connectStdio', 'definitionOf'].map((n) => typeof mcp[n]),
      internals: ['sharedAjv', 'parseLine', 'guardStdout', 'newSessionId', 'unwrap', 'annotationsOf', 'compiledEntryOf', 'handBuiltArgumentsProblem', 'createLazySignalContext'].filter((n) => n in compiler || n in runtime || n in mcp),
    }));`);
  assert.deepEqual(JSON.parse(stdout), {
    compiler: ['function', 'function', 'function', 'function'],
    runtime: ['function', 'function', 'function', 'function', 'function', 'function'],
    mcp: ['function', 'function', 'function', 'function', 'function', 'function'],
    internals: [],
  });
});

test('importing the root loads no HTTP transport; calling serveHttp loads it', async () => {
  const stdout = await runModule(`${RECORD_RESOLVED_MODULES}
    const tw = await import('toolwright');
    await new Promise((r) => setTimeout(r, 50));
    const http = (list) => list.filter((u) => /\\/http\\/|streamableHttp|node:http$/.test(u)).length;
    const before = http(seen);
    const handle = await tw.serveHttp({ name: 'x', version: '1.0.0' }, [], { port: 0 });
    await handle.close();
    await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify({ before, after: http(seen) > 0 }));
  `);
  assert.deepEqual(JSON.parse(stdout), { before: 0, after: true });
});

test('every entry point exports the same names from the bundle as from the unbundled modules, each class and function named alike', async () => {
  // Per entry point, each export's kind, and for a class or function its \`name\` (the bundle
  // renames some declarations to avoid clashes: a class must keep its own name).
  const code = `
    const exported = {};
    for (const entry of ['toolwright', 'toolwright/compiler', 'toolwright/runtime', 'toolwright/mcp', 'toolwright/testing', 'toolwright/nest', 'toolwright/redis']) {
      const module = await import(entry);
      exported[entry] = Object.fromEntries(Object.keys(module).sort().map((key) => [key, typeof module[key] === 'function' ? 'function ' + module[key].name : typeof module[key]]));
    }
    console.log(JSON.stringify(exported));`;
  const [bundled, unbundled] = await Promise.all([runModule(code), runModule(code, true)]);
  const exported = JSON.parse(bundled) as Record<string, Record<string, string>>;
  assert.deepEqual(exported, JSON.parse(unbundled));
  assert.deepEqual(Object.keys(exported['toolwright']!), ROOT_EXPORTS);
  assert.equal(exported['toolwright/nest']!['ToolwrightModule'], 'function ToolwrightModule');
});
