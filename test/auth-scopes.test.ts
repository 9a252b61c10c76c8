import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { IsString } from 'class-validator';
import {
  compile,
  defineClaims,
  defineScopes,
  DecoratorError,
  Scopes,
  serveHttp,
  Tool,
  type Principal,
} from '../src/index.js';
import { inspectTool } from '../src/compiler/index.js';
import { principalKey } from '../src/runtime/index.js';
import { missingScopes, mayCall } from '../src/mcp/index.js';

class TitleArgs {
  @IsString()
  title!: string;
}

const principal = (scopes: string[]): Principal => ({ subject: 'alice', clientId: 'alice', scopes, claims: {} });

test('scopes: @Scopes records the scopes on the compiled tool; used twice they add up, without duplicates', () => {
  @Tool({ description: 'Open an issue', args: TitleArgs })
  @Scopes('issues:write')
  @Scopes('issues:read', 'issues:write')
  class CreateIssue {
    execute(args: TitleArgs) {
      return `created ${args.title}`;
    }
  }
  const [tool] = compile([CreateIssue]);
  assert.deepEqual(tool!.scopes, ['issues:read', 'issues:write']);
  assert.ok(Object.isFrozen(tool!.scopes));
  assert.deepEqual(inspectTool(tool!).claims, { scopes: ['issues:read', 'issues:write'] });
});

test('scopes: defineScopes and defineClaims.scopes are the plain-function twins', () => {
  class ReadIssue {
    execute() {
      return 'issue';
    }
  }
  Tool({ description: 'Read an issue' })(ReadIssue);
  defineScopes(ReadIssue, 'issues:read');
  defineClaims.scopes(ReadIssue, 'admin');
  assert.deepEqual(compile([ReadIssue])[0]!.scopes, ['issues:read', 'admin']);
});

test('scopes: the @Tool option `scopes` is the same claim, and adds up with @Scopes', () => {
  @Tool({ name: 'close_issue', description: 'Close an issue', args: TitleArgs, scopes: ['issues:write'] })
  @Scopes('issues:admin')
  class CloseIssue {
    execute(args: TitleArgs) {
      return `closed ${args.title}`;
    }
  }
  assert.deepEqual(compile([CloseIssue])[0]!.scopes, ['issues:admin', 'issues:write']);
  class Scoped {}
  assert.throws(
    () => Tool({ description: 'x', scopes: [] })(Scoped),
    new DecoratorError(
      '@Tool() on class Scoped: "scopes": name at least one scope, such as scopes: [\'issues:write\']',
    ),
  );
  assert.throws(
    () => Tool({ description: 'x', scopes: 'issues:write' as never })(Scoped),
    new DecoratorError(
      '@Tool() on class Scoped: "scopes" must be an array of scope names such as [\'issues:write\'], got a string',
    ),
  );
  assert.throws(
    () => Tool({ description: 'x', scopes: ['a b'] })(Scoped),
    new DecoratorError(
      '@Tool() on class Scoped: "scopes": a scope must be a non-empty string of printable ASCII without spaces, quotes or backslashes (RFC 6749), got "a b"',
    ),
  );
});

test('scopes: @Scopes refuses no scope, a scope that is not an RFC 6749 token, and a non-class target', () => {
  assert.throws(
    () => Scopes(),
    new DecoratorError("@Scopes(): name at least one scope, such as @Scopes('issues:write')"),
  );
  for (const [bad, shown] of [
    ['issues write', '"issues write"'],
    ['', '""'],
    ['say"hi', '"say\\"hi"'],
    [5, '5'],
  ] as const) {
    assert.throws(
      () => Scopes(bad as string),
      new DecoratorError(
        `@Scopes(): a scope must be a non-empty string of printable ASCII without spaces, quotes or backslashes (RFC 6749), got ${shown}`,
      ),
    );
  }
  class Target {
    m() {}
  }
  assert.throws(
    () =>
      (Scopes('a') as unknown as MethodDecorator)(
        Target.prototype,
        'm',
        Object.getOwnPropertyDescriptor(Target.prototype, 'm')!,
      ),
    new DecoratorError('@Scopes() decorates a class, but it was applied to member Target.m'),
  );
});

test('scopes: missingScopes and mayCall; no principal means nothing is checked', () => {
  assert.deepEqual(missingScopes(['a', 'b', 'c'], principal(['b'])), ['a', 'c']);
  assert.deepEqual(missingScopes(['a'], undefined), []);
  assert.deepEqual(missingScopes(undefined, principal([])), []);
  assert.equal(mayCall({ scopes: ['a'] }, principal(['a', 'z'])), true);
  assert.equal(mayCall({ scopes: ['a'] }, principal([])), false);
  assert.equal(mayCall({}, principal([])), true);
});

test('principalKey: issuer and subject identify a principal; client, scopes and claims do not', () => {
  assert.equal(principalKey({ issuer: 'https://as.example', subject: 'alice' }), '["https://as.example","alice"]');
  assert.equal(principalKey({ subject: 'alice' }), '["","alice"]');
  const one: Principal = { ...principal(['a']), clientId: 'one' };
  const two: Principal = { ...principal([]), clientId: 'two', claims: { x: 1 } };
  assert.equal(principalKey(one), principalKey(two));
  assert.notEqual(
    principalKey({ issuer: 'https://a.example', subject: 'alice' }),
    principalKey({ issuer: 'https://b.example', subject: 'alice' }),
  );
});

test('scopes: serveHttp with auth refuses a hand-built tool whose scopes are not scope tokens, naming it', async () => {
  const tool = { name: 'bad', description: 'd', scopes: ['two words'], execute: async () => 'x' };
  await assert.rejects(
    serveHttp({ name: 's', version: '1' }, [tool], {
      auth: {
        verifier: async () => {
          throw new Error('unused');
        },
        issuer: 'https://as.example',
      },
    }),
    {
      name: 'TypeError',
      message:
        'serveHttp: tool "bad": scopes must be an array of scope names without spaces, quotes or backslashes (RFC 6749), got ["two words"]',
    },
  );
});

test(
  'scopes: stdio is unchanged: a local process trusts its parent, calls have no principal and scopes are not checked',
  { timeout: 30_000 },
  async (t) => {
    const fixture = fileURLToPath(new URL('./support/auth-stdio-fixture.js', import.meta.url));
    const client = new Client({ name: 'auth-stdio-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: 'pipe' }));
    t.after(() => client.close());
    assert.deepEqual(await client.callTool({ name: 'create_issue', arguments: { title: 'local' } }), {
      content: [{ type: 'text', text: 'created local' }],
    });
    assert.deepEqual(await client.callTool({ name: 'whoami', arguments: {} }), {
      content: [{ type: 'text', text: 'null' }],
    });
  },
);
