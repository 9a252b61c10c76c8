import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsIn, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import {
  Barrier,
  Complete,
  ContractError,
  Description,
  Facts,
  Flow,
  MaxOutput,
  Prompt,
  ReadOnly,
  Replay,
  Requires,
  Resource,
  ResourceTemplate,
  Scopes,
  Sequential,
  StaticResource,
  Timeout,
  Tool,
  compileResources,
  type ContractResourceTemplate,
  type ResourceContext,
} from '../src/index.js';
import { createCallContext } from '../src/runtime/index.js';
import { issuesOf, invalidMessage } from './support/compile-helpers.js';

function contextOf(uri: string): ResourceContext {
  return { ...createCallContext({ call: { id: 'r1', tool: 'resource', args: { uri } } }), uri } as ResourceContext;
}

test('a static resource compiles to a frozen contract resource whose read calls the class', async () => {
  @StaticResource({ uri: 'config://app', description: 'The settings', mimeType: 'application/json', size: 2 })
  @Timeout(500)
  @MaxOutput({ chars: 100 })
  class AppConfigResource {
    read(ctx: ResourceContext) {
      return `{"uri":"${ctx.uri}"}`;
    }
  }
  const [resource] = compileResources([AppConfigResource]);
  assert.ok(Object.isFrozen(resource));
  const { read, ...listed } = resource as unknown as Record<string, unknown>;
  assert.equal(typeof read, 'function');
  assert.deepEqual(listed, {
    uri: 'config://app',
    name: 'app_config',
    description: 'The settings',
    mimeType: 'application/json',
    size: 2,
    timeoutMs: 500,
    maxOutputChars: 100,
  });
  assert.equal(
    await (resource as { read(ctx: ResourceContext): Promise<unknown> }).read(contextOf('config://app')),
    '{"uri":"config://app"}',
  );
});

test('a template turns its variables into the typed, validated instance of its variables class', async () => {
  class PageVars {
    @Description('The user id')
    @IsInt()
    @Min(1)
    id!: number;

    @IsOptional()
    @IsIn(['name', 'email'], { each: true })
    fields?: string[];
  }
  @ResourceTemplate({ uriTemplate: 'users://{id}/profile{?fields}', args: PageVars })
  class ProfileTemplate {
    read(vars: PageVars) {
      return JSON.stringify({ id: vars.id, fields: vars.fields ?? null, isVars: vars instanceof PageVars });
    }
    @Complete('id')
    ids(value: string) {
      return ['1', '2', '12'].filter((id) => id.startsWith(value));
    }
  }
  const [made] = compileResources([ProfileTemplate]);
  const template = made as ContractResourceTemplate;
  assert.equal(template.name, 'profile');
  assert.equal(template.uriTemplate, 'users://{id}/profile{?fields}');
  const ctx = contextOf('users://7/profile');
  assert.equal(
    await template.read({ id: '7', fields: 'name,email' }, ctx),
    '{"id":7,"fields":["name","email"],"isVars":true}',
  );
  assert.equal(await template.read({ id: '7' }, ctx), '{"id":7,"fields":null,"isVars":true}');
  assert.equal(await invalidMessage(template.read({ id: 'x' }, ctx)), 'invalid arguments: /id: must be integer');
  assert.equal(await invalidMessage(template.read({ id: '0' }, ctx)), 'invalid arguments: /id: must be >= 1');
  assert.equal(
    await invalidMessage(template.read({ id: '1', fields: 'phone' }, ctx)),
    'invalid arguments: /fields/0: must be one of "name", "email"',
  );
  assert.deepEqual(await template.complete!({ argument: 'id', value: '1', arguments: {} }, ctx), ['1', '12']);
  assert.deepEqual(await template.complete!({ argument: 'fields', value: 'E', arguments: {} }, ctx), ['email']);
});

test('a template without a variables class reads its variables as the URI gave them, lists and completes nothing', async () => {
  @ResourceTemplate({ uriTemplate: 'repo://{owner}{/path*}' })
  class FileTemplate {
    read(vars: Record<string, unknown>) {
      return JSON.stringify(vars);
    }
    list() {
      return [{ uri: 'repo://me/a', name: 'a' }];
    }
  }
  const template = compileResources([FileTemplate])[0] as ContractResourceTemplate;
  assert.equal(template.complete, undefined);
  assert.equal(
    await template.read({ owner: 'me', path: ['a', 'b'] }, contextOf('repo://me/a/b')),
    '{"owner":"me","path":["a","b"]}',
  );
  assert.deepEqual(await template.list!(contextOf('')), [{ uri: 'repo://me/a', name: 'a' }]);
});

test('a class that is no resource is missing-resource-decorator, with a pointer for tools and prompts', () => {
  class Plain {
    read() {
      return '';
    }
  }
  @Tool({ description: 'd' })
  class SomeTool {
    execute() {
      return '';
    }
  }
  @Prompt({ description: 'd' })
  class SomePrompt {
    messages() {
      return '';
    }
  }
  assert.deepEqual(
    issuesOf(() => compileResources([Plain, SomeTool, SomePrompt, 42])),
    [
      {
        code: 'missing-resource-decorator',
        className: 'Plain',
        message:
          "class Plain has no @StaticResource() or @ResourceTemplate(): add @StaticResource({ uri: '...' }) (or @ResourceTemplate({ uriTemplate: '...' })) to it, or leave it out of compileResources()",
      },
      {
        code: 'missing-resource-decorator',
        className: 'SomeTool',
        message:
          'class SomeTool has no @StaticResource() or @ResourceTemplate(): it is a tool (@Tool()): pass it to compile()',
      },
      {
        code: 'missing-resource-decorator',
        className: 'SomePrompt',
        message:
          'class SomePrompt has no @StaticResource() or @ResourceTemplate(): it is a prompt (@Prompt()): pass it to compilePrompts()',
      },
      {
        code: 'missing-resource-decorator',
        className: '',
        message:
          'item 3 is not a resource: expected a @StaticResource() or @ResourceTemplate() class, an instance of one, or a contract resource object with uri (or uriTemplate), name and read, got a number',
      },
    ],
  );
  assert.throws(() => compileResources('x' as never), {
    name: 'TypeError',
    message: 'compileResources() takes an array of resource classes, instances and contract resources, got a string',
  });
  assert.throws(() => compileResources([], { lint: true } as never), {
    name: 'TypeError',
    message: 'compileResources(): unknown option "lint" (known options: resolve, resolveForCall, validator, maxDepth)',
  });
});

test('a resource class without read() is missing-read', () => {
  @StaticResource({ uri: 'a:b' })
  class NoRead {}
  @ResourceTemplate({ uriTemplate: 'a://{b}' })
  class NoTemplateRead {}
  assert.deepEqual(
    issuesOf(() => compileResources([NoRead, NoTemplateRead])),
    [
      {
        code: 'missing-read',
        className: 'NoRead',
        member: 'read',
        message:
          "class NoRead has no read() method: add read(ctx) returning the resource's content (text, bytes, or { text } / { blob } pieces)",
      },
      {
        code: 'missing-read',
        className: 'NoTemplateRead',
        member: 'read',
        message:
          "class NoTemplateRead has no read() method: add read(vars, ctx) returning the resource's content (text, bytes, or { text } / { blob } pieces)",
      },
    ],
  );
});

test('a variables class must fit its template, property by property (invalid-template-variable)', () => {
  class Address {
    @IsString()
    city!: string;
  }
  class Vars {
    @IsString()
    id!: string;

    @IsString()
    extra!: string;

    @ValidateNested()
    @Type(() => Address)
    address!: Address;

    @IsString()
    path!: string;
  }
  @ResourceTemplate({ uriTemplate: 'a://{id}/{missing}{/path*}', args: Vars })
  class Misfit {
    read() {
      return '';
    }
  }
  assert.deepEqual(
    issuesOf(() => compileResources([Misfit])),
    [
      {
        code: 'invalid-template-variable',
        className: 'Misfit',
        member: 'address',
        message:
          'class Misfit: Vars.address is an object (a nested class), which a URI template variable (a URI carries strings) cannot carry: make it a string, a number, a boolean, a string enum, or an array of one of those',
      },
    ],
  );
  class FitVars {
    @IsString()
    id!: string;

    @IsString()
    extra!: string;

    @IsString()
    path!: string;
  }
  @ResourceTemplate({ uriTemplate: 'a://{id}/{missing}{/path*}', args: FitVars })
  class Unfit {
    read() {
      return '';
    }
  }
  assert.deepEqual(
    issuesOf(() => compileResources([Unfit])),
    [
      {
        code: 'invalid-template-variable',
        className: 'Unfit',
        member: 'missing',
        message:
          'class Unfit: the template "a://{id}/{missing}{/path*}" has the variable {missing}, but FitVars has no property missing: add it (a string, such as @IsString() missing!: string)',
      },
      {
        code: 'invalid-template-variable',
        className: 'Unfit',
        member: 'path',
        message:
          'class Unfit: {path*} is exploded (a list), but FitVars.path is not an array: make it an array (@IsString({ each: true }) path!: string[]) or drop the "*"',
      },
      {
        code: 'invalid-template-variable',
        className: 'Unfit',
        member: 'extra',
        message:
          'class Unfit: FitVars.extra is not a variable of the template "a://{id}/{missing}{/path*}", so no URI can give it: remove it, or add {extra} to the template',
      },
    ],
  );
});

test('a completer must name a variable of its template; a fixed-URI resource has none to complete', () => {
  @ResourceTemplate({ uriTemplate: 'a://{id}' })
  class WrongName {
    read() {
      return '';
    }
    @Complete('ident')
    complete() {
      return [];
    }
  }
  @StaticResource({ uri: 'a:b' })
  class Fixed {
    read() {
      return '';
    }
    @Complete('id')
    ids() {
      return [];
    }
  }
  assert.deepEqual(
    issuesOf(() => compileResources([WrongName, Fixed])),
    [
      {
        code: 'unknown-completion-argument',
        className: 'WrongName',
        member: 'complete',
        message:
          'class WrongName: @Complete("ident") on complete() names no variable of it (its variables: id): name one of them',
      },
      {
        code: 'unknown-completion-argument',
        className: 'Fixed',
        member: 'ids',
        message:
          'class Fixed: @Complete("id") on ids() names no variable of it (it has no variables): name one of them',
      },
    ],
  );
});

test('a tool-only claim on a resource class is not-applicable-claim, one issue each', () => {
  @StaticResource({ uri: 'a:b' })
  @ReadOnly()
  @Sequential()
  @Barrier()
  @Resource('fs:root')
  @Flow({ sends: true })
  @Replay('safe')
  @Scopes('files:read')
  class Claimed {
    read() {
      return '';
    }
    @Facts()
    facts() {
      return { calls: null };
    }
  }
  assert.deepEqual(
    issuesOf(() => compileResources([Claimed])).map((issue) => [issue.code, issue.member, issue.message]),
    [
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @ReadOnly(), @Destructive(), @Idempotent() and @OpenWorld() are tool hints, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Sequential() is a claim of tools, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Barrier() is a claim of tools, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Resource(key) is a claim of tools, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Flow() is a claim of tools, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Replay() is a claim of tools, which means nothing for a resource: remove it',
      ],
      [
        'not-applicable-claim',
        undefined,
        'class Claimed: @Scopes() is a claim of tools, which means nothing for a resource: remove it (guard it with @Requires and a permission policy instead)',
      ],
      [
        'not-applicable-claim',
        'facts',
        'class Claimed: @Facts() answers the facts claim of a tool call, which means nothing for a resource: remove it',
      ],
    ],
  );
});

test('@Requires, @Timeout and @MaxOutput carry over to a template', () => {
  @ResourceTemplate({ uriTemplate: 'file:///{+path}' })
  @Requires({ capabilities: ['read'], subject: (args: { path: string }) => args.path })
  class Files {
    read() {
      return '';
    }
  }
  const [made] = compileResources([Files]);
  assert.deepEqual(
    made!.requires?.map((r) => r.capabilities),
    [['read']],
  );
});

test('two resources with one URI, or two templates with one template, are duplicate-uri', () => {
  @StaticResource({ uri: 'a:b' })
  class One {
    read() {
      return '';
    }
  }
  @StaticResource({ uri: 'a:b', name: 'two' })
  class Two {
    read() {
      return '';
    }
  }
  @ResourceTemplate({ uriTemplate: 'a://{x}' })
  class T1 {
    read() {
      return '';
    }
  }
  const handBuilt = { uriTemplate: 'a://{x}', name: 't2', read: async () => '' };
  assert.deepEqual(
    issuesOf(() => compileResources([One, Two, T1, handBuilt])),
    [
      {
        code: 'duplicate-uri',
        className: '',
        message: 'resource URI "a:b" is used 2 times (class One, class Two): each resource needs a URI of its own',
      },
      {
        code: 'duplicate-uri',
        className: '',
        message:
          'URI template "a://{x}" is used 2 times (class T1, contract resource "a://{x}"): each resource needs a URI of its own',
      },
    ],
  );
});

test('a hand-built resource is checked: its URI or template, its name, its read', () => {
  assert.deepEqual(
    issuesOf(() =>
      compileResources([
        { uri: 'notes.txt', name: '', read: 5 },
        { uriTemplate: 'a://{', name: 'x', read: async () => '' },
        { uriTemplate: 'a://b', name: 'x', read: async () => '' },
        { uri: 'a:b', name: 'x', read: async () => '', complete: async () => [] },
      ]),
    ),
    [
      {
        code: 'invalid-uri',
        className: '',
        member: 'uri',
        message:
          'contract resource "notes.txt" needs a "uri" that is an absolute URI such as "config://app" (or a "uriTemplate"), got "notes.txt"',
      },
      {
        code: 'invalid-name',
        className: '',
        member: 'name',
        message: 'contract resource "notes.txt" needs a non-empty string "name"',
      },
      {
        code: 'missing-read',
        className: '',
        member: 'read',
        message: 'contract resource "notes.txt" has no read function: give it read(ctx) returning the content',
      },
      {
        code: 'invalid-uri',
        className: '',
        member: 'uriTemplate',
        message:
          'contract resource "a://{" has a "uriTemplate" that is not a valid RFC 6570 URI template: unclosed "{" at 4',
      },
      {
        code: 'invalid-uri',
        className: '',
        member: 'uriTemplate',
        message: 'contract resource "a://b" has a "uriTemplate" without a variable: give a fixed URI as "uri" instead',
      },
      {
        code: 'unknown-completion-argument',
        className: '',
        member: 'complete',
        message: 'contract resource "a:b" has "complete", which only a template has',
      },
    ],
  );
  const plain = { uri: 'config://x', name: 'x', read: async () => 'x' };
  const [kept] = compileResources([plain]);
  assert.notEqual(kept, plain);
  assert.ok(Object.isFrozen(kept));
  assert.deepEqual({ ...kept }, plain);
});

test('a constructor that throws is resolve-failed; ContractError names the resources', () => {
  @StaticResource({ uri: 'a:b' })
  class Broken {
    constructor() {
      throw new Error('no database');
    }
    read() {
      return '';
    }
  }
  assert.throws(
    () => compileResources([Broken]),
    (err: unknown) => {
      assert.ok(err instanceof ContractError);
      assert.equal(
        err.message,
        'toolwright: 1 problem in the resources:\n  - [resolve-failed] class Broken: new Broken() threw while making the instance: no database; fix the constructor, or pass compile() a resolve function or an instance',
      );
      return true;
    },
  );
});
