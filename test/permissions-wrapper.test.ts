import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, textOf, PERMISSION_FORM, type PermissionQuestion } from '../src/runtime/index.js';
import {
  PermissionDeniedError,
  type ContractTool,
  type Elicitation,
  type ElicitAnswer,
  type CallContext,
} from '../src/index.js';
import { IsString } from 'class-validator';
import { compile, Requires, Tool } from '../src/index.js';
import { throughCore } from './support/core-tools.js';
import { callTool, imperativeWriter, WRITE_ARGS_SCHEMA } from './support/policy-tools.js';

const QUESTION_TEXT = 'Allow the tool "write_file" to use write on "/tmp/a"?\nReason: save the file';

function answering(...answers: ElicitAnswer[]) {
  const asked: Elicitation[] = [];
  const elicit = async (question: Elicitation): Promise<ElicitAnswer> => {
    asked.push(question);
    const answer = answers.shift();
    if (answer === undefined) throw new Error('asked more often than expected');
    return answer;
  };
  return { asked, elicit };
}

const accept = (decision: string, reason?: string): ElicitAnswer => ({
  action: 'accept',
  content: reason === undefined ? { decision } : { decision, reason },
});

test('allow once: asks through ctx.elicit with the confirmation form, runs again, records, and forgets after the call', async () => {
  const effects: string[] = [];
  const policy = createPolicy();
  const [tool] = [throughCore(imperativeWriter(effects), { policy: policy })];
  const user = answering(accept('allow_once'), accept('allow_once'));
  const result = await callTool(tool!, { path: '/tmp/a', text: 'x' }, user.elicit);
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'wrote /tmp/a with write' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [{ subject: '/tmp/a', capabilities: ['write'], decision: 'allow_once' }],
        grants: [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] }],
      },
    },
  });
  assert.deepEqual(user.asked, [{ message: QUESTION_TEXT, schema: PERMISSION_FORM }]);
  assert.deepEqual(PERMISSION_FORM, {
    type: 'object',
    properties: {
      decision: {
        type: 'string',
        title: 'Decision',
        oneOf: [
          { const: 'allow_once', title: 'Allow once' },
          { const: 'allow_always', title: 'Allow always' },
          { const: 'deny_once', title: 'Deny once' },
          { const: 'deny_always', title: 'Deny always' },
        ],
      },
      reason: { type: 'string', title: 'Reason', description: 'Optional: why, shown to the model when you deny' },
    },
    required: ['decision'],
  });
  assert.deepEqual(effects, ['/tmp/a']);
  assert.deepEqual(policy.remembered(), []);
  assert.deepEqual(await callTool(tool!, { path: '/tmp/a', text: 'x' }, user.elicit), result);
  assert.deepEqual(
    user.asked,
    [
      { message: QUESTION_TEXT, schema: PERMISSION_FORM },
      { message: QUESTION_TEXT, schema: PERMISSION_FORM },
    ],
    'a once-grant never authorises another call',
  );
  assert.deepEqual(effects, ['/tmp/a', '/tmp/a']);
});

test('allow always is remembered: the next call is not asked', async () => {
  const effects: string[] = [];
  const policy = createPolicy();
  const tool = throughCore(imperativeWriter(effects), { policy: policy });
  const user = answering(accept('allow_always'));
  await callTool(tool, { path: '/tmp/a', text: 'x' }, user.elicit);
  const second = await callTool(tool, { path: '/tmp/a', text: 'y' }, user.elicit);
  assert.deepEqual(second, {
    content: [{ type: 'text', text: 'wrote /tmp/a with write' }],
    record: {
      ns: 'toolwright:permissions',
      data: { decisions: [], grants: [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] }] },
    },
  });
  assert.deepEqual(user.asked, [{ message: QUESTION_TEXT, schema: PERMISSION_FORM }]);
  assert.deepEqual(effects, ['/tmp/a', '/tmp/a']);
  assert.deepEqual(policy.remembered(), [
    { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'allow' },
  ]);
  await assert.rejects(callTool(tool, { path: '/tmp/b', text: 'x' }), {
    message: 'permission denied: write on "/tmp/b": the user did not answer',
  });
});

test('deny once with a reason: the tool never acts and the error carries the record', async () => {
  const effects: string[] = [];
  const tool = throughCore(imperativeWriter(effects), { policy: createPolicy() });
  const user = answering(accept('deny_once', '  not today '));
  const error = await callTool(tool, { path: '/tmp/a', text: 'x' }, user.elicit).then(
    () => undefined,
    (err: unknown) => err,
  );
  assert.ok(error instanceof PermissionDeniedError);
  assert.equal(error.message, 'permission denied: write on "/tmp/a": not today');
  assert.deepEqual(error.denials, [{ subject: '/tmp/a', capabilities: ['write'], reason: 'not today' }]);
  assert.deepEqual(error.record, {
    ns: 'toolwright:permissions',
    data: {
      decisions: [{ subject: '/tmp/a', capabilities: ['write'], decision: 'deny_once', reason: 'not today' }],
      grants: [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: [] }],
    },
  });
  assert.deepEqual(effects, []);
});

test('deny always is remembered with its reason', async () => {
  const policy = createPolicy();
  const tool = throughCore(imperativeWriter([]), { policy: policy });
  const user = answering(accept('deny_always', 'never'));
  await assert.rejects(callTool(tool, { path: '/tmp/a', text: 'x' }, user.elicit), {
    message: 'permission denied: write on "/tmp/a": never',
  });
  await assert.rejects(callTool(tool, { path: '/tmp/a', text: 'x' }, user.elicit), {
    message: 'permission denied: write on "/tmp/a": never',
  });
  assert.deepEqual(user.asked, [{ message: QUESTION_TEXT, schema: PERMISSION_FORM }]);
  assert.deepEqual(policy.remembered(), [
    { tool: 'write_file', subject: '/tmp/a', capability: 'write', effect: 'deny', reason: 'never' },
  ]);
});

test('no answer is deny once: cancel, decline, a bad form, nobody to ask, a failing elicit', async () => {
  const tool = throughCore(imperativeWriter([]), { policy: createPolicy() });
  const args = { path: '/tmp/a', text: 'x' };
  const cases: Array<[((q: Elicitation) => Promise<ElicitAnswer>) | undefined, string]> = [
    [async () => ({ action: 'cancel' }), 'permission denied: write on "/tmp/a": the user did not answer'],
    [async () => ({ action: 'decline' }), 'permission denied: write on "/tmp/a"'],
    [
      async () => ({ action: 'accept', content: { decision: 'maybe' } }),
      'permission denied: write on "/tmp/a": the user did not answer',
    ],
    [undefined, 'permission denied: write on "/tmp/a": the user did not answer'],
    [
      async () => {
        throw new Error('transport closed');
      },
      'permission denied: write on "/tmp/a": the user could not be asked',
    ],
  ];
  for (const [elicit, message] of cases)
    await assert.rejects(callTool(tool, args, elicit), { name: 'PermissionDeniedError', message });
});

test('a host ask callback takes precedence over ctx.elicit', async () => {
  const questions: PermissionQuestion[] = [];
  const policy = createPolicy({
    ask: (question) => {
      questions.push(question);
      return { decision: 'allow_once' };
    },
  });
  const tool = throughCore(imperativeWriter([]), { policy: policy });
  const user = answering();
  assert.equal(textOf(await callTool(tool, { path: '/tmp/a', text: 'x' }, user.elicit)), 'wrote /tmp/a with write');
  assert.deepEqual(questions, [
    { tool: 'write_file', subject: '/tmp/a', capabilities: ['write'], reason: 'save the file' },
  ]);
  assert.deepEqual(user.asked, []);
  const silent = throughCore(imperativeWriter([]), { policy: createPolicy({ ask: async () => undefined }) });
  await assert.rejects(callTool(silent, { path: '/tmp/a', text: 'x' }), {
    message: 'permission denied: write on "/tmp/a": the user did not answer',
  });
});

test('a check waits in place for the answer: the tool runs once, and a side effect before a check is done once', async () => {
  let runs = 0;
  let effects = 0;
  let before = 0;
  const copy: ContractTool = {
    name: 'copy',
    description: 'Copies a file',
    async execute(args: unknown, ctx: CallContext) {
      runs += 1;
      before += 1;
      const { from, to } = args as { from: string; to: string };
      await ctx.requirePermission({ subject: from, capabilities: ['read'] });
      await ctx.requirePermission({ subject: to, capabilities: ['write'] });
      effects += 1;
      return `copied ${from} to ${to}`;
    },
  };
  const questions: string[] = [];
  const tool = throughCore(copy, {
    policy: createPolicy({
      ask: (q) => {
        questions.push(`${q.capabilities.join(',')} ${q.subject}`);
        return { decision: 'allow_once' };
      },
    }),
  });
  const result = await callTool(tool, { from: '/a', to: '/b' });
  assert.equal(runs, 1);
  assert.equal(before, 1);
  assert.equal(effects, 1);
  assert.deepEqual(questions, ['read /a', 'write /b']);
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'copied /a to /b' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [
          { subject: '/a', capabilities: ['read'], decision: 'allow_once' },
          { subject: '/b', capabilities: ['write'], decision: 'allow_once' },
        ],
        grants: [
          { subjects: ['/a'], capabilities: ['read'], granted: ['read'] },
          { subjects: ['/b'], capabilities: ['write'], granted: ['write'] },
        ],
      },
    },
  });
});

function renameTool(capabilities: string[]): ContractTool {
  return {
    name: 'rename',
    description: 'Renames a file',
    async execute(args: unknown, ctx: CallContext) {
      const { from, to } = args as { from: string; to: string };
      const granted = await ctx.requirePermission({
        subject: from,
        subjects: [
          { label: 'source file', subject: from },
          { label: 'destination file', subject: to },
        ],
        capabilities,
        reason: 'rename',
      });
      return granted.join(',');
    },
  };
}

test('several subjects: the grant is the intersection, never the union', async () => {
  const policy = createPolicy({
    implications: { write: ['read'] },
    rules: [
      { effect: 'allow', path: '/work/**', capabilities: ['write'] },
      { effect: 'deny', path: '/docs/**', capabilities: ['write'], reason: 'docs are read-only' },
      { effect: 'allow', path: '/docs/**', capabilities: ['read'] },
    ],
  });
  const both = throughCore(renameTool(['write', 'read']), { policy: policy });
  assert.equal(textOf(await callTool(both, { from: '/work/a', to: '/docs/b' })), 'read');
  assert.equal(textOf(await callTool(both, { from: '/work/a', to: '/work/b' })), 'write,read');
  const writeOnly = throughCore(renameTool(['write']), { policy: policy });
  await assert.rejects(callTool(writeOnly, { from: '/work/a', to: '/docs/b' }), {
    message: 'permission denied: write on "/docs/b": docs are read-only',
  });
  await assert.rejects(callTool(writeOnly, { from: '/docs/a', to: '/docs/b' }), {
    message: 'permission denied: write on "/docs/a": docs are read-only; write on "/docs/b": docs are read-only',
  });
});

test('the question about a labelled subject names the label', async () => {
  const questions: PermissionQuestion[] = [];
  const user = answering(accept('allow_once'), accept('allow_once'));
  const tool = throughCore(renameTool(['write']), { policy: createPolicy({}) });
  assert.equal(
    textOf(
      await callTool(tool, { from: '/x', to: '/y' }, async (q) => {
        questions.push(q as never);
        return user.elicit(q);
      }),
    ),
    'write',
  );
  assert.deepEqual(questions, user.asked);
  assert.deepEqual(
    user.asked.map((q) => q.message),
    [
      'Allow the tool "rename" to use write on the source file "/x"?\nReason: rename',
      'Allow the tool "rename" to use write on the destination file "/y"?\nReason: rename',
    ],
  );
});

test('a partial grant: a rule allows read, the user denies write, the tool gets read', async () => {
  const questions: PermissionQuestion[] = [];
  const policy = createPolicy({
    rules: [{ effect: 'allow', path: '/docs/**', capabilities: ['read'] }],
    ask: (q) => {
      questions.push(q);
      return { decision: 'deny_once' };
    },
  });
  const open: ContractTool = {
    name: 'open',
    description: 'Opens a file',
    async execute(args: unknown, ctx: CallContext) {
      return (
        await ctx.requirePermission({ subject: (args as { path: string }).path, capabilities: ['write', 'read'] })
      ).join(',');
    },
  };
  const result = await callTool(throughCore(open, { policy: policy }), { path: '/docs/readme' });
  assert.deepEqual(questions, [{ tool: 'open', subject: '/docs/readme', capabilities: ['write'] }]);
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'read' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [{ subject: '/docs/readme', capabilities: ['write'], decision: 'deny_once' }],
        grants: [{ subjects: ['/docs/readme'], capabilities: ['write', 'read'], granted: ['read'] }],
      },
    },
  });
});

test('rules are checked again on every check: a later denial supersedes an earlier approval', async () => {
  const policy = createPolicy({
    ask: (q) => {
      if (q.subject === '/b') policy.addRule({ effect: 'deny', path: '/a', reason: 'revoked' }, { first: true });
      return { decision: 'allow_once' };
    },
  });
  let effects = 0;
  const tool = throughCore(
    {
      name: 'two',
      description: 'Writes two files',
      async execute(_args: unknown, ctx: CallContext) {
        await ctx.requirePermission({ subject: '/a', capabilities: ['write'] });
        await ctx.requirePermission({ subject: '/b', capabilities: ['write'] });
        // The once-answer for /a is still there, but the rule added since comes first.
        await ctx.requirePermission({ subject: '/a', capabilities: ['write'] });
        effects += 1;
        return 'done';
      },
    },
    { policy: policy },
  );
  await assert.rejects(callTool(tool, {}), { message: 'permission denied: write on "/a": revoked' });
  assert.equal(effects, 0);
});

test('the number of questions in one call is bounded', async () => {
  let asked = 0;
  const policy = createPolicy({
    maxQuestions: 3,
    ask: () => {
      asked += 1;
      return { decision: 'allow_once' };
    },
  });
  const tool = throughCore(
    {
      name: 'many',
      description: 'Asks a lot',
      async execute(_args: unknown, ctx: CallContext) {
        for (let i = 0; i < 20; i += 1) await ctx.requirePermission({ subject: `/f${i}`, capabilities: ['read'] });
        return 'done';
      },
    },
    { policy: policy },
  );
  await assert.rejects(callTool(tool, {}), {
    name: 'TooManyPermissionQuestionsError',
    message: 'tool "many" needed more than 3 permission questions in one call',
  });
  assert.equal(asked, 3);
});

test('a tool that catches everything around a check still gets the answer: the check waits, the tool runs once', async () => {
  let runs = 0;
  const tool = throughCore(
    {
      name: 'sloppy',
      description: 'Catches everything',
      async execute(_args: unknown, ctx: CallContext) {
        runs += 1;
        try {
          await ctx.requirePermission({ subject: '/a', capabilities: ['write'] });
        } catch {
          return 'swallowed';
        }
        return 'granted';
      },
    },
    { policy: createPolicy({ ask: () => ({ decision: 'allow_once' }) }) },
  );
  assert.deepEqual(((await callTool(tool, {})) as { content: unknown }).content, [{ type: 'text', text: 'granted' }]);
  assert.equal(runs, 1);
});

test('declarative requirements are checked before execute, on schema-checked arguments', async () => {
  const effects: string[] = [];
  const questions: PermissionQuestion[] = [];
  const writer: ContractTool = {
    name: 'save',
    description: 'Saves a file',
    parameters: WRITE_ARGS_SCHEMA as never,
    requires: [
      { capabilities: ['write'], subject: (a: { path: string }) => a.path, label: 'target file', reason: 'save it' },
    ],
    async execute(args: unknown) {
      effects.push((args as { path: string }).path);
      return 'saved';
    },
  };
  const policy = createPolicy({
    rules: [{ effect: 'deny', path: '/etc/**', reason: 'system files' }],
    ask: (q) => {
      questions.push(q);
      return { decision: 'allow_once' };
    },
  });
  const tool = throughCore(writer, { policy: policy });
  await assert.rejects(callTool(tool, { path: '/etc/passwd', text: 'x' }), {
    name: 'PermissionDeniedError',
    message: 'permission denied: write on "/etc/passwd": system files',
  });
  await assert.rejects(callTool(tool, { text: 'x' }), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: /: must have required property "path"',
  });
  await assert.rejects(callTool(tool, 'text'), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: expected an object, got a string',
  });
  assert.deepEqual(effects, []);
  assert.deepEqual(questions, []);
  const result = await callTool(tool, { path: '/tmp/x', text: 'x' });
  assert.deepEqual(questions, [
    { tool: 'save', subject: '/tmp/x', label: 'target file', capabilities: ['write'], reason: 'save it' },
  ]);
  assert.deepEqual(result, {
    content: [{ type: 'text', text: 'saved' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [{ subject: '/tmp/x', label: 'target file', capabilities: ['write'], decision: 'allow_once' }],
        grants: [{ subjects: ['/tmp/x'], capabilities: ['write'], granted: ['write'] }],
      },
    },
  });
  assert.deepEqual(effects, ['/tmp/x']);
});

test('declarative requirements need every capability, on every subject', async () => {
  const policy = createPolicy({
    rules: [
      { effect: 'allow', path: '/work/**' },
      { effect: 'allow', path: '/docs/**', capabilities: ['read'] },
      { effect: 'deny', path: '/docs/**', reason: 'read-only' },
    ],
  });
  const move = throughCore(
    {
      name: 'move',
      description: 'Moves',
      requires: [{ capabilities: ['read', 'write'], subject: (a: { from: string; to: string }) => [a.from, a.to] }],
      async execute() {
        return 'moved';
      },
    },
    { policy: policy },
  );
  await assert.rejects(callTool(move, { from: '/work/a', to: '/docs/b' }), {
    message: 'permission denied: write on "/docs/b": read-only',
  });
  assert.deepEqual(await callTool(move, { from: '/work/a', to: '/work/b' }), {
    content: [{ type: 'text', text: 'moved' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [],
        grants: [{ subjects: ['/work/a', '/work/b'], capabilities: ['read', 'write'], granted: ['read', 'write'] }],
      },
    },
  });
});

test('a subject that cannot be told is an argument error and nothing runs', async () => {
  const base = {
    name: 'odd',
    description: 'Odd',
    async execute() {
      return 'ran';
    },
  };
  const policy = createPolicy({ rules: [{ effect: 'allow' }] });
  const throwing = throughCore(
    {
      ...base,
      requires: [
        {
          capabilities: ['x'],
          subject: () => {
            throw new Error('no path given');
          },
        },
      ],
    },
    { policy: policy },
  );
  await assert.rejects(callTool(throwing, {}), {
    name: 'InvalidArgumentsError',
    message: 'invalid arguments: cannot tell the permission subject: no path given',
  });
  const empty = throughCore(
    { ...base, requires: [{ capabilities: ['x'], subject: (a: { p?: string }) => a.p as string }] },
    { policy: policy },
  );
  await assert.rejects(callTool(empty, {}), {
    message:
      'invalid arguments: cannot tell the permission subject: subject() must return a non-empty string or a non-empty array of them, got undefined',
  });
});

test("the tool's own record wins over the permission record", async () => {
  const tool = throughCore(
    {
      name: 'own',
      description: 'Has a record',
      async execute(_args: unknown, ctx: CallContext) {
        await ctx.requirePermission({ subject: '/a', capabilities: ['read'] });
        return { content: [{ type: 'text', text: 'ok' }], record: { ns: 'me:mine', data: 1 } };
      },
    },
    { policy: createPolicy({ rules: [{ effect: 'allow' }] }) },
  );
  assert.deepEqual(await callTool(tool, {}), {
    content: [{ type: 'text', text: 'ok' }],
    record: { ns: 'me:mine', data: 1 },
  });
});

test('a tool that checks nothing gets no record', async () => {
  const inner: ContractTool = {
    name: 'plain',
    description: 'Plain',
    resource: 'shell:session',
    async execute() {
      return 'hi';
    },
  };
  assert.deepEqual(await callTool(throughCore(inner, { policy: createPolicy() }), {}), {
    content: [{ type: 'text', text: 'hi' }],
  });
});

test('without a policy, a permission check and a declared requirement are refused', async () => {
  const effects: string[] = [];
  await assert.rejects(callTool(imperativeWriter(effects), { path: '/tmp/a', text: 'x' }), {
    name: 'NoPermissionPolicyError',
    message: 'permission denied: no permission policy is configured to grant write on "/tmp/a"',
  });
  const declared: ContractTool = {
    name: 'd',
    description: 'D',
    requires: [{ capabilities: ['write'], subject: (a: { path: string }) => a.path }],
    async execute() {
      return 'x';
    },
  };
  await assert.rejects(callTool(throughCore(declared), { path: '/p' }), {
    name: 'NoPermissionPolicyError',
    message: 'permission denied: no permission policy is configured to grant write on "/p"',
  });
  assert.deepEqual(effects, []);
});

test("a malformed permission request is the tool's error", async () => {
  const tool = throughCore(
    {
      name: 'bad',
      description: 'Bad',
      async execute(_a: unknown, ctx: CallContext) {
        await ctx.requirePermission({ subject: '', capabilities: ['x'] });
        return 'x';
      },
    },
    { policy: createPolicy() },
  );
  await assert.rejects(callTool(tool, {}), {
    name: 'TypeError',
    message: 'requirePermission: "subject" must be a non-empty string',
  });
});

test('a call cancelled while asking stops without running again', async () => {
  const controller = new AbortController();
  let runs = 0;
  const tool = throughCore(
    {
      name: 'c',
      description: 'C',
      async execute(_a: unknown, ctx: CallContext) {
        runs += 1;
        await ctx.requirePermission({ subject: '/a', capabilities: ['x'] });
        return 'x';
      },
    },
    {
      policy: createPolicy({
        ask: () => {
          controller.abort(new Error('call cancelled by the client'));
          return { decision: 'allow_once' };
        },
      }),
    },
  );
  const { createCallContext } = await import('../src/runtime/index.js');
  await assert.rejects(
    tool.execute({}, createCallContext({ call: { id: '1', tool: 'c', args: {} }, signal: controller.signal })),
    { message: 'call cancelled by the client' },
  );
  assert.equal(runs, 1);
});

test("a compiled tool's @Requires is checked once, by the call core: asked once, recorded once", async () => {
  let asked = 0;
  let runs = 0;
  class PathArgs {
    @IsString() path!: string;
  }
  @Tool({ name: 'self', description: 'Declares a requirement', args: PathArgs })
  @Requires({ capabilities: ['write'], subject: (a: PathArgs) => a.path })
  class SelfTool {
    async execute() {
      runs += 1;
      return 'ok';
    }
  }
  const [compiled] = compile([SelfTool]);
  const tool = throughCore(compiled!, {
    policy: createPolicy({
      ask: () => {
        asked += 1;
        return { decision: 'allow_once' };
      },
    }),
  });
  assert.deepEqual(await callTool(tool, { path: '/p' }), {
    content: [{ type: 'text', text: 'ok' }],
    record: {
      ns: 'toolwright:permissions',
      data: {
        decisions: [{ subject: '/p', capabilities: ['write'], decision: 'allow_once' }],
        grants: [{ subjects: ['/p'], capabilities: ['write'], granted: ['write'] }],
      },
    },
  });
  assert.equal(asked, 1);
  assert.equal(runs, 1);
});
