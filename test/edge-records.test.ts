import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Call, ContractTool, ToolRecord } from '../src/contract/index.js';
import { RawJsonData } from '../src/contract/internal.js';
import { createPolicy } from '../src/runtime/index.js';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { connectEraClient, ERA_CLIENT_KINDS, type EraClient } from './support/nest-era-clients.js';
import { untilAborted } from './support/text.js';

/*
 * Records over the wire in both eras (SDK 1.x and 2.x clients over streamable HTTP on
 * 127.0.0.1): a result carries one record under `_meta[RECORD_META_KEY]`, the tool's before the
 * permissions record (a tool's record is never dropped), and the host's `onRecord` hears every
 * record of every call in order as it is written, also for calls that fail or time out.
 */

const RECORD_KEY = 'io.github.christopherdavenport.agenttool/record';

const tools: ContractTool[] = [
  {
    name: 'steps',
    description: 'Writes two records, then returns',
    async execute(_args, ctx) {
      ctx.writeRecord('app:step', { n: 1 });
      ctx.writeRecord('app:step', '{"n":2}');
      return 'done';
    },
  },
  {
    name: 'returns',
    description: 'Writes a record, then returns one of its own',
    async execute(_args, ctx) {
      ctx.writeRecord('app:step', { n: 1 });
      return { content: [{ type: 'text', text: 'returned' }], record: { ns: 'app:final', data: { ok: true } } };
    },
  },
  {
    name: 'fails',
    description: 'Writes a record, then throws',
    async execute(_args, ctx) {
      ctx.writeRecord('app:step', { n: 1 });
      throw new Error('broke after the first step');
    },
  },
  {
    name: 'slow',
    description: 'Writes a record, then waits past its time limit',
    timeoutMs: 100,
    async execute(_args, ctx) {
      ctx.writeRecord('app:step', { n: 1 });
      await untilAborted(ctx.signal);
      return 'late';
    },
  },
  {
    name: 'guarded',
    description: 'Needs write on its note, and keeps an audit record of its own',
    requires: [{ capabilities: ['write'], subject: () => 'notes/a' }],
    async execute(_args, ctx) {
      ctx.writeRecord('app:audit', { wrote: 'notes/a' });
      return 'wrote';
    },
  },
  {
    name: 'plain_guarded',
    description: 'Needs write on its note, and keeps no record',
    requires: [{ capabilities: ['write'], subject: () => 'notes/b' }],
    async execute() {
      return 'wrote';
    },
  },
];

const PERMISSIONS = (subject: string) => ({
  ns: 'toolwright:permissions',
  data: {
    decisions: [],
    grants: [{ subjects: [subject], capabilities: ['write'], granted: ['write'] }],
  },
});

const heard: Array<{ tool: string; record: ToolRecord }> = [];
let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'records', version: '1.0.0' }, tools, {
    policy: createPolicy({ rules: [{ effect: 'allow', capabilities: ['write'] }] }),
    onRecord: (record: ToolRecord, call: Call) => heard.push({ tool: call.tool, record }),
  });
});

after(async () => {
  await handle.close();
});

/** What `onRecord` heard, as plain JSON (raw JSON text data read back), then forgotten. */
function takeHeard(): Array<{ tool: string; ns: string; data: unknown }> {
  const taken = heard.splice(0).map(({ tool, record }) => ({
    tool,
    ns: record.ns,
    data: record.data instanceof RawJsonData ? (JSON.parse(record.data.text) as unknown) : record.data,
  }));
  return taken;
}

/** The record a result carries on the wire, its data parsed. */
function wireRecord(result: Record<string, unknown>): unknown {
  const meta = result._meta as Record<string, { ns: string; data: string }> | undefined;
  const record = meta?.[RECORD_KEY];
  return record === undefined ? undefined : { ns: record.ns, data: JSON.parse(record.data) as unknown };
}

for (const kind of ERA_CLIENT_KINDS) {
  describe(`records with ${kind}`, () => {
    let client: EraClient;
    before(async () => {
      client = await connectEraClient(kind, { url: new URL(handle.url) });
      heard.length = 0;
    });
    after(() => client.close());

    it('onRecord hears every written record in order; the result carries the last one', async () => {
      const result = await client.call('steps');
      assert.deepEqual(wireRecord(result), { ns: 'app:step', data: { n: 2 } });
      assert.deepEqual(takeHeard(), [
        { tool: 'steps', ns: 'app:step', data: { n: 1 } },
        { tool: 'steps', ns: 'app:step', data: { n: 2 } },
      ]);
    });

    it('a returned record wins on the wire, and onRecord hears it after the written ones', async () => {
      const result = await client.call('returns');
      assert.deepEqual(wireRecord(result), { ns: 'app:final', data: { ok: true } });
      assert.deepEqual(takeHeard(), [
        { tool: 'returns', ns: 'app:step', data: { n: 1 } },
        { tool: 'returns', ns: 'app:final', data: { ok: true } },
      ]);
    });

    it('a call that fails or times out keeps what it wrote, and onRecord heard it', async () => {
      const failed = await client.call('fails');
      assert.equal(failed.isError, true);
      assert.deepEqual(wireRecord(failed), { ns: 'app:step', data: { n: 1 } });
      assert.deepEqual(takeHeard(), [{ tool: 'fails', ns: 'app:step', data: { n: 1 } }]);
      const timedOut = await client.call('slow');
      assert.equal(timedOut.isError, true);
      assert.deepEqual(wireRecord(timedOut), { ns: 'app:step', data: { n: 1 } });
      assert.deepEqual(takeHeard(), [{ tool: 'slow', ns: 'app:step', data: { n: 1 } }]);
    });

    it("under a policy the tool's record crosses, and the permissions record goes to onRecord", async () => {
      const result = await client.call('guarded');
      assert.deepEqual(
        [result.content, wireRecord(result)],
        [[{ type: 'text', text: 'wrote' }], { ns: 'app:audit', data: { wrote: 'notes/a' } }],
      );
      assert.deepEqual(takeHeard(), [
        { tool: 'guarded', ns: 'app:audit', data: { wrote: 'notes/a' } },
        { tool: 'guarded', ...PERMISSIONS('notes/a') },
      ]);
      const plain = await client.call('plain_guarded');
      assert.deepEqual(wireRecord(plain), PERMISSIONS('notes/b'));
      assert.deepEqual(takeHeard(), [{ tool: 'plain_guarded', ...PERMISSIONS('notes/b') }]);
    });
  });
}
