// Run by test/schema-runners.test.ts under runners that emit no decorator metadata (tsx, which
// compiles with esbuild): compiles the issue tracker sample from its TypeScript source, calls
// three tools, and prints one JSON line with what it saw. Not a test file itself.
import { compile } from 'toolwright';
import { createCallContext } from 'toolwright/runtime';
import { tools } from '../../samples/issues/tools.js';

const designTypes =
  typeof (Reflect as unknown as { getMetadata?: unknown }).getMetadata === 'function'
    ? (Reflect as unknown as { getMetadata(key: string, target: object, key2: string): unknown }).getMetadata(
        'design:paramtypes',
        (tools[1] as { prototype: object }).prototype,
        'execute',
      )
    : 'no reflect-metadata';
const compiled = compile(tools, { schemaProfile: 'portable' });
const ctx = (tool: string) => createCallContext({ call: { id: '1', tool, args: {} } });
const byName = (name: string) => compiled.find((tool) => tool.name === name)!;
const results: unknown[] = [];
results.push(await byName('search_issues').execute({ query: 'x', states: null, limit: 3 }, ctx('search_issues')));
results.push(
  await byName('schedule_issue').execute(
    { issue: 1, target: { kind: 'milestone', milestone: 'v2' } },
    ctx('schedule_issue'),
  ),
);
results.push(
  await byName('link_issues').execute(
    { issue: 1, links: [{ key: 'a', value: { relation: 'blocks', issue: 2 } }] },
    ctx('link_issues'),
  ),
);
try {
  await byName('add_comment').execute({ issue: false, body: 'x' }, ctx('add_comment'));
} catch (error) {
  results.push((error as Error).message);
}
process.stdout.write(
  `${JSON.stringify({ designParamTypes: designTypes === undefined ? 'none' : 'recorded', tools: compiled.map((tool) => tool.name), results })}\n`,
);
