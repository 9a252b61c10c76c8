import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import {
  compile,
  compileResources,
  defineClaims,
  defineTaskSupport,
  StaticResource,
  TaskSupport,
  Timeout,
  Tool,
  type ContractTool,
} from '../src/index.js';
import { getClaims } from '../src/compiler/index.js';
import { serveHttp, TOOL_META_KEY, type HttpHandle } from '../src/mcp/index.js';
import { taskTermsOf } from '../src/contract/index.js';

/*
 * The task claim: @TaskSupport and its twins, the checks at decoration and compile time, and how
 * the claim is listed in each era (execution.taskSupport in 2025-11-25, none in 2026-07-28, the
 * claim with its defaults under the tool _meta key in both). Real SDK clients of both lines over
 * one HTTP endpoint.
 */

@Tool({ description: 'Deploys the app' })
@TaskSupport('required', { ttlMs: 600_000, pollIntervalMs: 2_000 })
class DeployTool {
  execute(): string {
    return 'deployed';
  }
}

@Tool({ description: 'Builds a report' })
@TaskSupport('optional')
class ReportTool {
  execute(): string {
    return 'report';
  }
}

@Tool({ description: 'Says hello' })
class GreetTool {
  execute(): string {
    return 'hello';
  }
}

test('@TaskSupport records the claim; the twins record the same; the defaults are read by taskTermsOf', () => {
  assert.deepEqual(getClaims(DeployTool).task, { support: 'required', ttlMs: 600_000, pollIntervalMs: 2_000 });
  assert.deepEqual(getClaims(ReportTool).task, { support: 'optional' });
  class Twin {}
  defineTaskSupport(Twin, 'optional', { ttlMs: 5_000 });
  assert.deepEqual(getClaims(Twin).task, { support: 'optional', ttlMs: 5_000 });
  class Other {}
  defineClaims.taskSupport(Other, 'required');
  assert.deepEqual(getClaims(Other).task, { support: 'required' });
  const [deploy, report, greet] = compile([DeployTool, ReportTool, GreetTool]);
  assert.deepEqual(deploy!.task, { support: 'required', ttlMs: 600_000, pollIntervalMs: 2_000 });
  assert.deepEqual(taskTermsOf(report!), {
    support: 'optional',
    ttlMs: 3_600_000,
    pollIntervalMs: 1_000,
    startsAsCall: false,
  });
  assert.deepEqual(taskTermsOf(greet!), {
    support: 'forbidden',
    ttlMs: 3_600_000,
    pollIntervalMs: 1_000,
    startsAsCall: false,
  });
});

test('@TaskSupport refuses a bad support, TTL, interval, option or target, naming the class', () => {
  class Job {}
  const cases: [() => void, string][] = [
    [
      () => TaskSupport('forbidden' as never)(Job),
      '@TaskSupport() on class Job: support "forbidden" is what a tool without the claim has: leave the claim off instead',
    ],
    [
      () => TaskSupport('sometimes' as never)(Job),
      '@TaskSupport() on class Job: support must be "required" or "optional", got "sometimes"',
    ],
    [
      () => TaskSupport('optional', { ttlMs: 0 })(Job),
      '@TaskSupport() on class Job: "ttlMs" must be a whole number of milliseconds from 1 to 86400000 (24 hours), got 0',
    ],
    [
      () => TaskSupport('optional', { ttlMs: 86_400_001 })(Job),
      '@TaskSupport() on class Job: "ttlMs" must be a whole number of milliseconds from 1 to 86400000 (24 hours), got 86400001',
    ],
    [
      () => TaskSupport('optional', { ttlMs: 1_000, pollIntervalMs: 1_001 })(Job),
      '@TaskSupport() on class Job: "pollIntervalMs" must be a whole number of milliseconds from 1 to the TTL (1000), got 1001',
    ],
    [
      () => TaskSupport('optional', { pollIntervalMs: '5' } as never)(Job),
      '@TaskSupport() on class Job: "pollIntervalMs" must be a whole number of milliseconds from 1 to the TTL (3600000), got "5"',
    ],
    [
      () => TaskSupport('optional', { ttl: 5 } as never)(Job),
      '@TaskSupport() on class Job: has no option "ttl" (known options: support, ttlMs, pollIntervalMs, startsAsCall)',
    ],
    [
      () => TaskSupport('optional', { support: 'required' } as never)(Job),
      '@TaskSupport() on class Job: has no option "support" (known options: ttlMs, pollIntervalMs, startsAsCall); the support is the first argument',
    ],
    [
      () => TaskSupport('required', { startsAsCall: 'yes' } as never)(Job),
      '@TaskSupport() on class Job: "startsAsCall" must be true or false, got "yes"',
    ],
    [
      () => TaskSupport('optional', null as never)(Job),
      '@TaskSupport() on class Job: the options must be an object { ttlMs?, pollIntervalMs?, startsAsCall? }, got null',
    ],
    [
      () => (TaskSupport('optional') as (...args: unknown[]) => void)({}, 'run'),
      '@TaskSupport() decorates a class, but it was applied to member Object.run',
    ],
  ];
  for (const [apply, message] of cases) assert.throws(apply, { name: 'DecoratorError', message });
  assert.deepEqual(getClaims(Job), {});
});

test('compile refuses a time limit longer than the TTL, a malformed hand-built claim, and the claim on a resource', () => {
  @Tool({ description: 'Migrates the database' })
  @Timeout(7_200_000)
  @TaskSupport('optional')
  class MigrateTool {
    execute(): string {
      return 'migrated';
    }
  }
  assert.throws(
    () => compile([MigrateTool]),
    (err: { name?: string; issues?: unknown[] }) => {
      assert.equal(err.name, 'ContractError');
      assert.deepEqual(err.issues, [
        {
          code: 'conflicting-claims',
          member: 'task',
          className: 'MigrateTool',
          message:
            'class MigrateTool: its time limit (@Timeout, 7200000 ms) is longer than the TTL of its tasks (@TaskSupport, 3600000 ms), so a task could be discarded while its call still runs: raise "ttlMs" to at least 7200000, or shorten the time limit',
        },
      ]);
      return true;
    },
  );
  const handBuilt: ContractTool = {
    name: 'sync',
    description: 'Syncs',
    execute: async () => 'synced',
    task: { support: 'always' as never },
  };
  assert.throws(
    () => compile([handBuilt]),
    (err: { issues?: { code: string; message: string }[] }) => {
      assert.deepEqual(
        err.issues?.map((issue) => [issue.code, issue.message]),
        [['invalid-claim', 'contract tool "sync": "task" support must be "required" or "optional", got "always"']],
      );
      return true;
    },
  );
  assert.throws(
    () => compile([{ ...handBuilt, task: { support: 'required', startsAsCall: 1 as never } }]),
    (err: { issues?: { code: string; message: string }[] }) => {
      assert.deepEqual(
        err.issues?.map((issue) => [issue.code, issue.message]),
        [['invalid-claim', 'contract tool "sync": "task" "startsAsCall" must be true or false, got 1']],
      );
      return true;
    },
  );
  @StaticResource({ uri: 'config://app', description: 'The settings' })
  @TaskSupport('optional')
  class AppConfig {
    read(): string {
      return '{}';
    }
  }
  assert.throws(
    () => compileResources([AppConfig]),
    (err: { issues?: { code: string; message: string }[] }) => {
      assert.deepEqual(
        err.issues?.map((issue) => [issue.code, issue.message]),
        [
          [
            'not-applicable-claim',
            'class AppConfig: @TaskSupport() is a claim of tools, which means nothing for a resource: remove it',
          ],
        ],
      );
      return true;
    },
  );
});

let handle: HttpHandle;

before(async () => {
  handle = await serveHttp({ name: 'task-claims', version: '1.0.0' }, compile([DeployTool, ReportTool, GreetTool]));
});

after(async () => {
  await handle.close();
});

const info = { name: 'task-claim-test', version: '1.0.0' };

test('a 2025-11-25 client (SDK 1.x) reads execution.taskSupport and the claim in _meta', async () => {
  const client = new V1Client(info);
  await client.connect(new V1HttpTransport(new URL(handle.url)));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.execution, (tool._meta as Record<string, unknown>)[TOOL_META_KEY]]),
      [
        [
          'deploy',
          { taskSupport: 'required' },
          { replay: true, task: { support: 'required', ttlMs: 600_000, pollIntervalMs: 2_000 } },
        ],
        [
          'report',
          { taskSupport: 'optional' },
          { replay: true, task: { support: 'optional', ttlMs: 3_600_000, pollIntervalMs: 1_000 } },
        ],
        ['greet', undefined, { replay: true }],
      ],
    );
  } finally {
    await client.close();
  }
});

test('a 2026-07-28 client (SDK 2.x) gets no execution field (that era has none) and the claim in _meta', async () => {
  const client = new V2Client(info, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
  await client.connect(new V2HttpTransport(new URL(handle.url)));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => [tool.name, 'execution' in tool, (tool._meta as Record<string, unknown>)[TOOL_META_KEY]]),
      [
        ['deploy', false, { replay: true, task: { support: 'required', ttlMs: 600_000, pollIntervalMs: 2_000 } }],
        ['report', false, { replay: true, task: { support: 'optional', ttlMs: 3_600_000, pollIntervalMs: 1_000 } }],
        ['greet', false, { replay: true }],
      ],
    );
  } finally {
    await client.close();
  }
});
