import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsString, MaxLength } from 'class-validator';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { Requires, Tool, compile } from '../src/index.js';
import { createPolicy, PERMISSION_FORM, type PermissionPolicy } from '../src/runtime/index.js';
import { RECORD_META_KEY } from '../src/mcp/index.js';
import { serve } from './support/server-harness.js';

/** A compiled tool with a declarative requirement; `writes` counts its side effects. */
function writerTools(writes: string[]) {
  class WriteArgs {
    @IsString()
    @MaxLength(256)
    path!: string;

    @IsString()
    text!: string;
  }

  @Tool({ name: 'write_file', description: 'Writes a text file', args: WriteArgs })
  @Requires({ capabilities: ['write'], subject: (a: WriteArgs) => a.path, reason: 'save the text' })
  class WriteFile {
    async execute(args: WriteArgs) {
      writes.push(args.path);
      return `wrote ${args.text.length} characters to ${args.path}`;
    }
  }
  return compile([WriteFile]);
}

/** Serves the policy-wrapped writer to a client that answers questions from `answers`. */
async function servedWriter(policy: PermissionPolicy, answers: ElicitResult[], elicitation = true) {
  const writes: string[] = [];
  const questions: unknown[] = [];
  const connected = await serve(writerTools(writes), elicitation ? { capabilities: { elicitation: {} } } : {}, {
    transport: 'memory',
    policy,
  });
  if (elicitation) {
    connected.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('asked more often than expected');
      return answer;
    });
  }
  const call = (path: string) => connected.client.callTool({ name: 'write_file', arguments: { path, text: 'hello' } });
  return { writes, questions, call, close: connected.close };
}

function recordMeta(decisions: unknown[], grants: unknown[]) {
  return { [RECORD_META_KEY]: { ns: 'toolwright:permissions', data: JSON.stringify({ decisions, grants }) } };
}

const GRANT_A = { subjects: ['/tmp/a'], capabilities: ['write'], granted: ['write'] };

test('served: allow once asks through elicitation/create, runs once, and asks again next call', async () => {
  const served = await servedWriter(createPolicy(), [
    { action: 'accept', content: { decision: 'allow_once' } },
    { action: 'accept', content: { decision: 'allow_once' } },
  ]);
  try {
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'wrote 5 characters to /tmp/a' }],
      _meta: recordMeta([{ subject: '/tmp/a', capabilities: ['write'], decision: 'allow_once' }], [GRANT_A]),
    });
    assert.deepEqual(served.questions, [
      {
        mode: 'form',
        message: 'Allow the tool "write_file" to use write on "/tmp/a"?\nReason: save the text',
        requestedSchema: PERMISSION_FORM,
      },
    ]);
    assert.deepEqual(served.writes, ['/tmp/a']);
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'wrote 5 characters to /tmp/a' }],
      _meta: recordMeta([{ subject: '/tmp/a', capabilities: ['write'], decision: 'allow_once' }], [GRANT_A]),
    });
    assert.deepEqual(served.questions, [served.questions[0], served.questions[0]]);
    assert.deepEqual(served.writes, ['/tmp/a', '/tmp/a']);
  } finally {
    await served.close();
  }
});

test('served: allow always is remembered for the next call', async () => {
  const policy = createPolicy();
  const served = await servedWriter(policy, [{ action: 'accept', content: { decision: 'allow_always' } }]);
  try {
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'wrote 5 characters to /tmp/a' }],
      _meta: recordMeta([{ subject: '/tmp/a', capabilities: ['write'], decision: 'allow_always' }], [GRANT_A]),
    });
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'wrote 5 characters to /tmp/a' }],
      _meta: recordMeta([], [GRANT_A]),
    });
    assert.deepEqual(served.questions, [
      {
        mode: 'form',
        message: 'Allow the tool "write_file" to use write on "/tmp/a"?\nReason: save the text',
        requestedSchema: PERMISSION_FORM,
      },
    ]);
    // Remembered for the session that answered (decisionScope defaults to the principal, else the
    // session), never policy-wide.
    assert.deepEqual(policy.remembered(), []);
    assert.deepEqual(served.writes, ['/tmp/a', '/tmp/a']);
  } finally {
    await served.close();
  }
});

test('served: deny, decline and no answer are error results and nothing is written', async () => {
  const served = await servedWriter(createPolicy(), [
    { action: 'accept', content: { decision: 'deny_once', reason: 'not there' } },
    { action: 'decline' },
    { action: 'cancel' },
  ]);
  try {
    // A denial's record crosses on the failure as a success's would.
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'permission denied: write on "/tmp/a": not there' }],
      isError: true,
      _meta: recordMeta(
        [{ subject: '/tmp/a', capabilities: ['write'], decision: 'deny_once', reason: 'not there' }],
        [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: [] }],
      ),
    });
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'permission denied: write on "/tmp/a"' }],
      isError: true,
      _meta: recordMeta(
        [{ subject: '/tmp/a', capabilities: ['write'], decision: 'deny_once' }],
        [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: [] }],
      ),
    });
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'permission denied: write on "/tmp/a": the user did not answer' }],
      isError: true,
      _meta: recordMeta(
        [{ subject: '/tmp/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user did not answer' }],
        [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: [] }],
      ),
    });
    assert.deepEqual(served.writes, []);
  } finally {
    await served.close();
  }
});

test('served: a client without elicitation is never asked; rules still allow', async () => {
  const policy = createPolicy({
    rules: [{ effect: 'allow', tool: 'write_*', path: '/tmp/ok/**', capabilities: ['write'] }],
  });
  const served = await servedWriter(policy, [], false);
  try {
    assert.deepEqual(await served.call('/tmp/a'), {
      content: [{ type: 'text', text: 'permission denied: write on "/tmp/a": the user did not answer' }],
      isError: true,
      _meta: recordMeta(
        [{ subject: '/tmp/a', capabilities: ['write'], decision: 'deny_once', reason: 'the user did not answer' }],
        [{ subjects: ['/tmp/a'], capabilities: ['write'], granted: [] }],
      ),
    });
    assert.deepEqual(await served.call('/tmp/ok/x'), {
      content: [{ type: 'text', text: 'wrote 5 characters to /tmp/ok/x' }],
      _meta: recordMeta([], [{ subjects: ['/tmp/ok/x'], capabilities: ['write'], granted: ['write'] }]),
    });
    assert.deepEqual(served.writes, ['/tmp/ok/x']);
  } finally {
    await served.close();
  }
});

test('served: invalid arguments are reported before any question', async () => {
  const served = await servedWriter(createPolicy(), []);
  try {
    assert.deepEqual(await served.call(''.padEnd(300, 'x')), {
      content: [{ type: 'text', text: 'invalid arguments: /path: must NOT have more than 256 characters' }],
      isError: true,
    });
    assert.deepEqual(served.questions, []);
  } finally {
    await served.close();
  }
});
