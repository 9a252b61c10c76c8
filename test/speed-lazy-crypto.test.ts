/**
 * `node:crypto` is loaded the first time toolwright makes a random id (a parked call's state, an
 * HTTP session id, a task id, an executor's idempotency key, an elicitation id), never by
 * `import 'toolwright'` (issue 28, cold start: loading it costs a process about 4 ms). A stdio
 * server that lists and answers a call never loads it. Both builds, a child process each (the
 * published bundle and the unbundled modules); never timed. Runs in about 2 seconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runProcess } from './support/run-process.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RANDOM_MODULE = fileURLToPath(new URL('../src/util/random.js', import.meta.url));

/**
 * A child that serves a hand-built tool over in-memory stdio streams, lists and calls it, and
 * reports whether `node:crypto` was loaded after each step; then makes one random UUID.
 */
const SCRIPT = `
import { PassThrough } from 'node:stream';
const crypto = () => (process.moduleLoadList.includes('NativeModule crypto') ? 'crypto' : 'no crypto');
const steps = [];
const tw = await import('toolwright');
steps.push('import: ' + crypto());
const tools = tw.compile([{ name: 'echo', description: 'Echoes', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: (args) => args.text }]);
const stdin = new PassThrough();
const stdout = new PassThrough();
let output = '';
stdout.on('data', (chunk) => (output += chunk));
await tw.serveStdio({ name: 'x', version: '1' }, tools, { stdin, stdout });
const lines = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
];
for (const line of lines) stdin.write(JSON.stringify(line) + '\\n');
for (let i = 0; i < 500 && !output.includes('"id":3'); i++) await new Promise((r) => setTimeout(r, 10));
if (!output.includes('"text":"hi"')) throw new Error('the call was not answered within 5 s: ' + output);
steps.push('listed and called: ' + crypto());
const { randomUUID } = await import(${JSON.stringify(RANDOM_MODULE)});
const id = randomUUID();
steps.push('a random id (' + (/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id) ? 'a v4 UUID' : id) + '): ' + crypto());
console.log(steps.join('\\n'));
process.exit(0);
`;

for (const build of ['bundle', 'unbundled'] as const) {
  test(`${build}: importing toolwright and serving stdio loads no node:crypto until a random id is made`, async () => {
    const outcome = await runProcess(
      process.execPath,
      [...(build === 'unbundled' ? ['--conditions=toolwright-unbundled'] : []), '--input-type=module', '-e', SCRIPT],
      { timeoutMs: 60_000, cwd: REPO_ROOT },
    );
    assert.equal(outcome.stderr, '');
    assert.deepEqual(outcome.stdout.trim().split('\n'), [
      'import: no crypto',
      'listed and called: no crypto',
      'a random id (a v4 UUID): crypto',
    ]);
  });
}
