import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { CLI_PATH, fixture, REPO_ROOT } from './support/cli-paths.js';
import { runProcess } from './support/run-process.js';
import { connectEraClient } from './support/nest-era-clients.js';

/*
 * The real `toolwright` command (the bundle, as a child process) running tools that need a
 * permission: a module's `policy` export, `--ask` for `call` (questions on the terminal), `serve`
 * (questions through the client's elicitation, both eras) and `proxy`; and the dialect rule
 * through `call`, which goes through `compile()` like `serve`.
 */

const run = (args: readonly string[], input = '') =>
  runProcess(process.execPath, [CLI_PATH, ...args], { timeoutMs: 20_000, cwd: REPO_ROOT, input });

const outcome = async (args: readonly string[], input = '') => {
  const ran = await run(args, input);
  return { code: ran.code, stdout: ran.stdout, stderr: ran.stderr };
};

const WITH_POLICY = fixture('permissions');
const NO_POLICY = fixture('permissions-no-policy');
const QUESTION =
  'toolwright: Allow the tool "write_note" to use write on "notes/draft"?\nReason: save the note\n  1) Allow once\n  2) Allow always\n  3) Deny once\n  4) Deny always\nDecision (number): Reason (optional): ';

describe('toolwright call with permissions', () => {
  it('runs a tool the policy export allows, and denies one nobody was asked about', async () => {
    assert.deepEqual(await outcome(['call', WITH_POLICY, 'write_note', '{"name":"ok1"}']), {
      code: 0,
      stdout: 'wrote notes/ok1\n',
      stderr: '',
    });
    assert.deepEqual(await outcome(['call', WITH_POLICY, 'write_note', '{"name":"draft"}']), {
      code: 1,
      stdout: '',
      stderr: 'permission denied: write on "notes/draft": the user did not answer\n',
    });
  });

  it('--ask puts the question the policy leaves open on the terminal', async () => {
    assert.deepEqual(await outcome(['call', WITH_POLICY, 'write_note', '{"name":"draft"}', '--ask'], '1\n'), {
      code: 0,
      stdout: 'wrote notes/draft\n',
      stderr: QUESTION,
    });
  });

  it('without a policy export a permission is denied, and --ask asks for every one', async () => {
    assert.deepEqual(await outcome(['call', NO_POLICY, 'write_note', '{"name":"ok1"}']), {
      code: 1,
      stdout: '',
      stderr: 'permission denied: no permission policy is configured to grant write on "notes/ok1"\n',
    });
    assert.deepEqual(await outcome(['call', NO_POLICY, 'write_note', '{"name":"draft"}', '--ask'], '3\n'), {
      code: 1,
      stdout: '',
      stderr: `${QUESTION}permission denied: write on "notes/draft"\n`,
    });
    assert.deepEqual(await outcome(['call', NO_POLICY, 'write_note', '{"name":"draft"}', '--ask'], ''), {
      code: 1,
      stdout: '',
      stderr: `${QUESTION.replace('Reason (optional): ', '')}permission denied: write on "notes/draft": the user did not answer\n`,
    });
  });

  it('refuses a policy export that is not a policy, naming the module', async () => {
    assert.deepEqual(await outcome(['call', fixture('bad-policy'), 'write_note']), {
      code: 2,
      stdout: '',
      stderr: `toolwright: module ${JSON.stringify(fixture('bad-policy'))}: its "policy" export must be a PermissionPolicy or createPolicy options, got a string\n`,
    });
  });

  it('--help of serve, call and proxy says how permissions are decided', async () => {
    for (const command of ['serve', 'call', 'proxy']) {
      const help = await outcome([command, '--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /--ask/);
      assert.match(help.stdout, /policy/);
    }
  });
});

/** A result's content, and `isError` when set (the record in `_meta` is pinned by the records tests). */
function contentOf(result: unknown): { content: unknown; isError?: true } {
  const { content, isError } = result as { content: unknown; isError?: boolean };
  return isError === true ? { content, isError } : { content };
}

/** Connects a client of one era to `toolwright <args>` over stdio; it answers every elicitation with `decision`. */
async function stdioClient(era: '2025-11-25' | '2026-07-28', args: readonly string[], decision: string) {
  const reply = () => ({ action: 'accept' as const, content: { decision } });
  const command = { command: process.execPath, args: [CLI_PATH, ...args], cwd: REPO_ROOT, stderr: 'ignore' as const };
  const info = { name: 'cli-permissions-test', version: '1.0.0' };
  const capabilities = { elicitation: { form: {} } };
  if (era === '2025-11-25') {
    const client = new V1Client(info, { capabilities });
    client.setRequestHandler(ElicitRequestSchema, async () => reply());
    await client.connect(new V1StdioTransport(command));
    return {
      call: async (name: string, args: Record<string, unknown>) =>
        contentOf(await client.callTool({ name, arguments: args })),
      close: () => client.close(),
    };
  }
  const client = new V2Client(info, { capabilities, versionNegotiation: { mode: { pin: era } } });
  client.setRequestHandler('elicitation/create', async () => reply() as never);
  await client.connect(new V2StdioTransport(command));
  return {
    call: async (name: string, args: Record<string, unknown>) =>
      contentOf(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
}

describe('toolwright serve and proxy with permissions', () => {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    it(`serve asks the client (${era}) what the policy export leaves open; --ask asks for every permission`, async () => {
      const served = await stdioClient(era, ['serve', WITH_POLICY], 'allow_once');
      try {
        assert.deepEqual(await served.call('write_note', { name: 'draft' }), {
          content: [{ type: 'text', text: 'wrote notes/draft' }],
        });
      } finally {
        await served.close();
      }
      const denied = await stdioClient(era, ['serve', NO_POLICY], 'allow_once');
      try {
        assert.deepEqual(await denied.call('write_note', { name: 'draft' }), {
          content: [
            {
              type: 'text',
              text: 'permission denied: no permission policy is configured to grant write on "notes/draft"',
            },
          ],
          isError: true,
        });
      } finally {
        await denied.close();
      }
      const asking = await stdioClient(era, ['serve', NO_POLICY, '--ask'], 'deny_once');
      try {
        assert.deepEqual(await asking.call('write_note', { name: 'draft' }), {
          content: [{ type: 'text', text: 'permission denied: write on "notes/draft"' }],
          isError: true,
        });
      } finally {
        await asking.close();
      }
    });
  }

  it('proxy --ask asks its client about a tool no rule decides, instead of forwarding it unchecked', async () => {
    const upstream = `${process.execPath} ${CLI_PATH} serve ${fixture('dialects')}`;
    const allowed = await stdioClient('2025-11-25', ['proxy', upstream, '--ask'], 'allow_once');
    try {
      assert.deepEqual(await allowed.call('draft07', { n: 2 }), { content: [{ type: 'text', text: 'n=2' }] });
    } finally {
      await allowed.close();
    }
    const denied = await stdioClient('2025-11-25', ['proxy', upstream, '--ask'], 'deny_once');
    try {
      assert.deepEqual(await denied.call('draft07', { n: 2 }), {
        content: [{ type: 'text', text: 'permission denied: unclassified on "draft07"' }],
        isError: true,
      });
    } finally {
      await denied.close();
    }
  });
});

describe('toolwright call and dialects', () => {
  it('serves hand-built tools of draft-07, draft-04 and an unknown dialect, validating each as the hosts do', async () => {
    const dialects = fixture('dialects');
    const warning =
      'toolwright: createServer: tool "other": schema declares the dialect "https://example.com/my-dialect", which no validator here knows; it is served unvalidated\n';
    assert.deepEqual(await outcome(['call', dialects, 'draft07', '{"n":0}']), {
      code: 1,
      stdout: '',
      stderr: `${warning}invalid arguments: /n: must be >= 1\n`,
    });
    assert.deepEqual(await outcome(['call', dialects, 'draft04', '{"n":0}']), {
      code: 1,
      stdout: '',
      stderr: `${warning}invalid arguments: /n: must be >= 1\n`,
    });
    assert.deepEqual(await outcome(['call', dialects, 'other', '{"n":0}']), {
      code: 0,
      stdout: 'n=0\n',
      stderr: warning,
    });
  });

  it('serve (stdio) validates them the same way, for a 2026-07-28 client', async () => {
    const client = await connectEraClient('sdk 2.x (2026-07-28)', {
      command: process.execPath,
      args: [CLI_PATH, 'serve', fixture('dialects')],
    });
    try {
      const refused = { content: [{ type: 'text', text: 'invalid arguments: /n: must be >= 1' }], isError: true };
      assert.deepEqual(
        [
          await client.call('draft07', { n: 0 }),
          await client.call('draft04', { n: 0 }),
          await client.call('other', { n: 0 }),
        ],
        [refused, refused, { content: [{ type: 'text', text: 'n=0' }] }],
      );
    } finally {
      await client.close();
    }
  });
});
