import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { serveHttp, type HttpHandle } from '../src/mcp/index.js';
import { createPolicy, type PermissionRule } from '../src/runtime/index.js';
import { ERA_CLIENT_KINDS, connectEraClient } from './support/nest-era-clients.js';
import { PATH_READERS, pathReaders } from './support/path-tools.js';

/*
 * Issue 20, item 1, from outside: the attacks on a `{ effect: 'deny', path: '/etc/**' }` rule
 * sent by real SDK clients of both eras (1.x in 2025-11-25, 2.x in 2025-11-25 and 2026-07-28)
 * over HTTP, to tools whose path argument is a declared path subject, an imperative one, and a
 * plain subject only the path rule resolves. Two servers for the file: the deny rule followed by
 * an allow rule, and the deny rule alone in a policy that asks the user. The tools resolve against
 * /srv/app/work (the policy's pathBase), so ../../../../etc/passwd is /etc/passwd.
 */

const SYSTEM: PermissionRule = { effect: 'deny', path: '/etc/**', reason: 'system files' };
const ATTACKS = ['../../../../etc/passwd', '/etc/passwd\0', '/etc', '/etc/'] as const;

const failed = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
const DENIED: Record<(typeof PATH_READERS)[number], readonly unknown[]> = {
  read_declared: [
    failed('permission denied: read on "/etc/passwd": system files'),
    failed(
      'invalid arguments: cannot tell the permission subject: the path "/etc/passwd\\u0000" cannot be resolved: it holds a NUL byte',
    ),
    failed('permission denied: read on "/etc": system files'),
    failed('permission denied: read on "/etc": system files'),
  ],
  read_imperative: [
    failed('permission denied: read on "/etc/passwd": system files'),
    failed('permission denied: read on "/etc/passwd\\u0000": the path cannot be resolved: it holds a NUL byte'),
    failed('permission denied: read on "/etc": system files'),
    failed('permission denied: read on "/etc": system files'),
  ],
  read_plain: [
    failed('permission denied: read on "../../../../etc/passwd": system files'),
    failed('permission denied: read on "/etc/passwd\\u0000": the path cannot be resolved: it holds a NUL byte'),
    failed('permission denied: read on "/etc": system files'),
    failed('permission denied: read on "/etc/": system files'),
  ],
};

interface Served {
  readonly handle: HttpHandle;
  readonly reached: string[];
}

const servers = new Map<string, Served>();

async function serveWith(name: string, rules: readonly PermissionRule[]): Promise<void> {
  const reached: string[] = [];
  const policy = createPolicy({ pathBase: '/srv/app/work', rules });
  const handle = await serveHttp({ name, version: '1.0.0' }, pathReaders(reached), { policy });
  servers.set(name, { handle, reached });
}

before(async () => {
  await serveWith('allowing', [SYSTEM, { effect: 'allow' }]);
  await serveWith('asking', [SYSTEM]);
});

after(async () => {
  for (const { handle } of servers.values()) await handle.close();
});

/** The result without its `_meta` (the permission record, pinned by the permission suites). */
function withoutMeta(result: Record<string, unknown>): Record<string, unknown> {
  const { _meta, ...rest } = result;
  return rest;
}

for (const kind of ERA_CLIENT_KINDS) {
  for (const server of ['allowing', 'asking'] as const) {
    test(
      `robust paths: ${kind}, deny /etc/** ${server === 'allowing' ? 'then allow' : 'in an asking policy'}: the attacks never reach the tool nor the user`,
      { timeout: 60_000 },
      async () => {
        const { handle, reached } = servers.get(server)!;
        const asked: string[] = [];
        const client = await connectEraClient(kind, { url: new URL(handle.url) }, (message) => {
          asked.push(message);
          return 'no';
        });
        try {
          reached.length = 0;
          for (const tool of PATH_READERS) {
            const got: unknown[] = [];
            for (const path of ATTACKS) got.push(withoutMeta(await client.call(tool, { path })));
            assert.deepEqual(got, DENIED[tool], tool);
          }
          assert.deepEqual(reached, []);
          assert.deepEqual(asked, []);
          // The control: a path inside the base is allowed by the allow rule, or put to the user.
          const control = withoutMeta(await client.call('read_imperative', { path: 'notes/../a.txt' }));
          if (server === 'allowing') {
            assert.deepEqual(control, { content: [{ type: 'text', text: 'read notes/../a.txt' }] });
            assert.deepEqual(reached, ['read_imperative notes/../a.txt']);
          } else {
            // The era clients answer every form with { answer }, which the permission form refuses.
            assert.deepEqual(
              control,
              failed('permission denied: read on "/srv/app/work/a.txt": the user could not be asked'),
            );
            assert.deepEqual(asked, ['Allow the tool "read_imperative" to use read on "/srv/app/work/a.txt"?']);
          }
        } finally {
          await client.close();
        }
      },
    );
  }
}
