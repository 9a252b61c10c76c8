import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Executor,
  createCallContext,
  textOf,
  type CallOutcome,
  type PermissionQuestion,
} from '../src/runtime/index.js';
import { guardedShell, parseCommandLine, shellPolicy, shellTools, ShellSessions } from '../samples/shell/index.js';
import { serve } from './support/server-harness.js';

/** What the model reads of an outcome: the text, or the error message. */
function shown(outcome: CallOutcome): string {
  return outcome.ok ? textOf(outcome.result) : `error: ${outcome.error.message}`;
}

test('shell sample: a batch in model order, with permissions asked once per path and /etc refused', async () => {
  const questions: string[] = [];
  const policy = shellPolicy({
    ask: (q: PermissionQuestion) => {
      questions.push(`${q.capabilities.join(',')} ${q.subject}`);
      return { decision: 'allow_always' };
    },
  });
  const guarded = guardedShell({ policy });
  const executor = new Executor({ tools: guarded.tools, ...guarded.options });
  const shell = (id: string, command: string) => ({ id, tool: 'shell', args: { command } });
  const outcomes = await executor.run([
    shell('1', 'mkdir -p /tmp/work/logs'),
    shell('2', 'cd /tmp/work'),
    shell('3', "echo 'hello  world' > note.txt"),
    shell('4', 'echo again >> note.txt'),
    shell('5', 'cat note.txt'),
    shell('6', 'ls'),
    shell('7', 'echo x > /etc/motd'),
    { id: '8', tool: 'write_file', args: { path: '/tmp/../etc/passwd', text: 'root' } },
    { id: '9', tool: 'read_file', args: { path: '/etc/motd' } },
    shell('10', 'rm -rf /'),
    shell('11', 'pwd'),
  ]);
  assert.deepEqual(outcomes.map(shown), [
    '',
    '',
    '',
    '',
    'hello  world\nagain\n',
    'logs/\nnote.txt\n',
    'error: permission denied: write on "/etc/motd": system files are read-only',
    'error: permission denied: write on "/etc/passwd": system files are read-only',
    'Welcome to the toolwright shell sample.\n',
    'error: unknown command "rm" (known: cd, pwd, ls, echo, cat, mkdir)',
    '/tmp/work\n',
  ]);
  assert.deepEqual(questions, ['write /tmp/work/logs', 'write /tmp/work/note.txt']);
});

test('shell sample: facts name the files a command line reads and writes', async () => {
  const [shell] = shellTools();
  const ctx = createCallContext({ call: { id: '1', tool: 'shell', args: {} } });
  assert.deepEqual(await shell!.facts!({ command: 'cat a ../b > /tmp/out' }, ctx), {
    calls: [
      { tool: 'read', args: { path: '/home/user/a' } },
      { tool: 'read', args: { path: '/home/b' } },
      { tool: 'write', args: { path: '/tmp/out' } },
    ],
  });
  assert.deepEqual(parseCommandLine(`echo "a b"'c'd>>x`), {
    command: 'echo',
    words: ['a bcd'],
    redirect: { path: 'x', append: true },
  });
  assert.throws(() => parseCommandLine('echo "open'), { message: 'unclosed " quote' });
  assert.throws(() => parseCommandLine('echo >'), { message: 'a redirection needs a file path after > or >>' });
});

test("shell sample: output is bounded by the tool's @MaxOutput", async () => {
  const guarded = guardedShell({ policy: shellPolicy({ ask: () => ({ decision: 'allow_once' }) }) });
  const executor = new Executor({ tools: guarded.tools, ...guarded.options });
  const outcomes = await executor.run([
    { id: '1', tool: 'write_file', args: { path: '/tmp/big', text: 'y'.repeat(5000) } },
    { id: '2', tool: 'shell', args: { command: 'cat /tmp/big' } },
  ]);
  assert.deepEqual(outcomes.map(shown), [
    'wrote 5000 characters to /tmp/big',
    `${'y'.repeat(4000)}\n…[truncated: showing 4,000 of 5,000 characters]`,
  ]);
});

test('shell sample served: each connection has its own session; writes are asked through elicitation', async () => {
  const guarded = guardedShell({ sessions: new ShellSessions() });
  const first = await serve(
    guarded.tools,
    { capabilities: { elicitation: {} } },
    { transport: 'memory', ...guarded.options },
  );
  const second = await serve(
    guarded.tools,
    { capabilities: { elicitation: {} } },
    { transport: 'memory', ...guarded.options },
  );
  const asked: string[] = [];
  first.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision: 'allow_once' } };
  });
  try {
    const run = (client: typeof first.client, command: string) =>
      client.callTool({ name: 'shell', arguments: { command } });
    await run(first.client, 'cd /tmp');
    assert.deepEqual(await run(first.client, 'pwd'), { content: [{ type: 'text', text: '/tmp\n' }] });
    assert.deepEqual((await run(second.client, 'pwd')).content, [{ type: 'text', text: '/home/user\n' }]);
    assert.deepEqual((await run(first.client, 'echo hi > greeting')).content, [{ type: 'text', text: '' }]);
    assert.deepEqual(asked, [
      'Allow the tool "shell" to use write on "/tmp/greeting"?\nReason: echo writes /tmp/greeting',
    ]);
    assert.deepEqual((await run(second.client, 'cat /tmp/greeting')).content, [
      { type: 'text', text: 'no such file: /tmp/greeting' },
    ]);
    assert.deepEqual((await run(first.client, 'cat greeting')).content, [{ type: 'text', text: 'hi\n' }]);
  } finally {
    await first.close();
    await second.close();
  }
});
