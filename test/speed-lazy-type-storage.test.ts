/**
 * Generating a decorated tool's schema never loads class-transformer (issue 28, cold start: about
 * 4 ms, and a question per property): a `@Type` can only come from a loaded class-transformer, so
 * while the process has not loaded it there is nothing to read. The tool's first call (its DTO
 * builder) loads it and answers as before; a process that loaded class-transformer gets its
 * `@Type`s in the schema. A child process each, both builds; never timed. Runs in about 3 seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runProcess } from './support/run-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A child that compiles a decorated tool (with `@Type` on a nested DTO when `withType`), then calls
 * it, reporting whether class-transformer was loaded after each step and what the schema says.
 */
const script = (withType: boolean): string => `
import 'reflect-metadata';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const loaded = () => (Object.keys(require.cache).some((file) => file.includes('/node_modules/class-transformer/')) ? 'class-transformer' : 'no class-transformer');
const { IsString, ValidateNested } = await import('class-validator');
${withType ? "const { Type } = await import('class-transformer');" : ''}
const tw = await import('toolwright');
const steps = ['before compile: ' + loaded()];
class Inner {}
IsString()(Inner.prototype, 'name');
class Args {}
IsString()(Args.prototype, 'text');
${withType ? "ValidateNested()(Args.prototype, 'inner'); Type(() => Inner)(Args.prototype, 'inner');" : ''}
class Echo { execute(args) { return args.text; } }
tw.Tool({ description: 'Echoes', args: Args })(Echo);
const [tool] = tw.compile([Echo]);
steps.push('after compile: ' + loaded() + ', properties ' + Object.keys(tool.parameters.properties).join(' ') + (tool.parameters.properties.inner === undefined ? '' : ', inner ' + JSON.stringify(tool.parameters.properties.inner.properties)));
const answer = await tool.execute(${withType ? "{ text: 'hi', inner: { name: 'n' } }" : "{ text: 'hi' }"}, { call: { id: '1', tool: tool.name, args: {} }, signal: new AbortController().signal });
steps.push('after a call (' + answer + '): ' + loaded());
console.log(steps.join('\\n'));
process.exit(0);
`;

async function stepsOf(build: 'bundle' | 'unbundled', withType: boolean): Promise<string[]> {
  const outcome = await runProcess(
    process.execPath,
    [
      ...(build === 'unbundled' ? ['--conditions=toolwright-unbundled'] : []),
      '--input-type=module',
      '-e',
      script(withType),
    ],
    { timeoutMs: 60_000, cwd: REPO_ROOT },
  );
  assert.equal(outcome.stderr, '');
  return outcome.stdout.trim().split('\n');
}

for (const build of ['bundle', 'unbundled'] as const) {
  test(`${build}: compiling a decorated tool loads no class-transformer; its first call does`, async () => {
    assert.deepEqual(await stepsOf(build, false), [
      'before compile: no class-transformer',
      'after compile: no class-transformer, properties text',
      'after a call (hi): class-transformer',
    ]);
  });

  test(`${build}: with class-transformer loaded, a @Type is still read into the schema`, async () => {
    assert.deepEqual(await stepsOf(build, true), [
      'before compile: class-transformer',
      'after compile: class-transformer, properties text inner, inner {"name":{"type":"string"}}',
      'after a call (hi): class-transformer',
    ]);
  });
}
