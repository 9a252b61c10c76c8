import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Complete,
  DecoratorError,
  Prompt,
  Resource,
  ResourceTemplate,
  StaticResource,
  Tool,
  defineComplete,
  definePrompt,
  defineResourceTemplate,
  defineStaticResource,
} from '../src/index.js';
import {
  getCompleters,
  getPromptOptions,
  getResourceTemplateOptions,
  getStaticResourceOptions,
} from '../src/decorators/index.js';

/** Applies `decorator` to a fresh class named `name` and returns the DecoratorError message it throws. */
function refusal(decorator: ClassDecorator, name = 'Subject'): string {
  const cls = { [name]: class {} }[name]!;
  try {
    decorator(cls);
  } catch (err) {
    assert.ok(err instanceof DecoratorError, `expected a DecoratorError, got ${String(err)}`);
    assert.equal(err.code, 'invalid-decorator');
    return err.message;
  }
  assert.fail('expected the decorator to throw');
}

test('@StaticResource records its options and its plain-function twin does the same', () => {
  @StaticResource({
    uri: 'config://app',
    title: 'App config',
    description: 'The settings',
    mimeType: 'application/json',
    size: 12,
    annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
  })
  class AppConfig {
    read() {
      return '{}';
    }
  }
  assert.deepEqual(getStaticResourceOptions(AppConfig), {
    uri: 'config://app',
    title: 'App config',
    description: 'The settings',
    mimeType: 'application/json',
    size: 12,
    annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
  });
  class Twin {
    read() {
      return '';
    }
  }
  defineStaticResource(Twin, { uri: 'file:///notes.txt', name: 'notes' });
  assert.deepEqual(getStaticResourceOptions(Twin), { uri: 'file:///notes.txt', name: 'notes' });
});

test('@StaticResource refuses each bad option at once, naming the class', () => {
  const cases: [unknown, string][] = [
    ['config://app', '@StaticResource() on class Subject: takes an options object, got a string'],
    [
      { uri: 'config://app', mime: 'text/plain' },
      '@StaticResource() on class Subject: has no option "mime" (known options: uri, name, title, description, mimeType, size, annotations)',
    ],
    [
      {},
      '@StaticResource() on class Subject: "uri" must be an absolute URI such as "file:///notes.txt" or "config://app", got nothing',
    ],
    [
      { uri: 'notes.txt' },
      '@StaticResource() on class Subject: "uri" must be an absolute URI such as "file:///notes.txt" or "config://app", got "notes.txt"',
    ],
    [
      { uri: 'config://my app' },
      '@StaticResource() on class Subject: "uri" must be an absolute URI such as "file:///notes.txt" or "config://app", got "config://my app"',
    ],
    [
      { uri: 'users://{id}' },
      '@StaticResource() on class Subject: "uri" "users://{id}" is a URI template (it has {id}): use @ResourceTemplate({ uriTemplate: "users://{id}" }) for a family of resources',
    ],
    [{ uri: 'a:b', name: ' ' }, '@StaticResource() on class Subject: "name" must be a non-empty string, got " "'],
    [{ uri: 'a:b', title: 3 }, '@StaticResource() on class Subject: "title" must be a string, got a number'],
    [
      { uri: 'a:b', description: [] },
      '@StaticResource() on class Subject: "description" must be a string, got an array',
    ],
    [
      { uri: 'a:b', mimeType: 'json' },
      '@StaticResource() on class Subject: "mimeType" must be a MIME type such as "text/plain" or "application/json", got "json"',
    ],
    [
      { uri: 'a:b', size: -1 },
      '@StaticResource() on class Subject: "size" must be a whole number of bytes (0 or more), got -1',
    ],
    [
      { uri: 'a:b', size: 1.5 },
      '@StaticResource() on class Subject: "size" must be a whole number of bytes (0 or more), got 1.5',
    ],
    [
      { uri: 'a:b', annotations: 'user' },
      '@StaticResource() on class Subject: "annotations" must be an object { audience?, priority?, lastModified? }, got a string',
    ],
    [
      { uri: 'a:b', annotations: { who: ['user'] } },
      '@StaticResource() on class Subject: "annotations" has no member "who" (known members: audience, priority, lastModified)',
    ],
    [
      { uri: 'a:b', annotations: { audience: ['model'] } },
      '@StaticResource() on class Subject: "annotations.audience" must be an array of "user" and "assistant", got an array',
    ],
    [
      { uri: 'a:b', annotations: { priority: 2 } },
      '@StaticResource() on class Subject: "annotations.priority" must be a number from 0 to 1, got 2',
    ],
    [
      { uri: 'a:b', annotations: { lastModified: 'yesterday' } },
      '@StaticResource() on class Subject: "annotations.lastModified" must be an ISO 8601 timestamp such as "2025-01-12T15:00:58Z", got "yesterday"',
    ],
  ];
  for (const [options, message] of cases) assert.equal(refusal(StaticResource(options as never)), message);
});

test('@ResourceTemplate records its options and refuses templates that do not parse, naming the problem', () => {
  class Vars {}
  @ResourceTemplate({ uriTemplate: 'users://{id}/profile{?fields}', args: Vars, mimeType: 'text/plain' })
  class Profile {
    read() {
      return '';
    }
  }
  assert.deepEqual(getResourceTemplateOptions(Profile), {
    uriTemplate: 'users://{id}/profile{?fields}',
    args: Vars,
    mimeType: 'text/plain',
  });
  class Twin {}
  defineResourceTemplate(Twin, { uriTemplate: 'file:///{+path}' });
  assert.deepEqual(getResourceTemplateOptions(Twin), { uriTemplate: 'file:///{+path}' });

  const prefix = '@ResourceTemplate() on class Subject: ';
  const cases: [unknown, string][] = [
    [{}, `${prefix}"uriTemplate" must be an RFC 6570 URI template such as "users://{id}/profile", got nothing`],
    [
      { uriTemplate: 'users://{id' },
      `${prefix}"uriTemplate" "users://{id" is not a valid RFC 6570 URI template: unclosed "{" at 8`,
    ],
    [
      { uriTemplate: 'users://{}' },
      `${prefix}"uriTemplate" "users://{}" is not a valid RFC 6570 URI template: empty expression at 8`,
    ],
    [
      { uriTemplate: 'users://{!id}' },
      `${prefix}"uriTemplate" "users://{!id}" is not a valid RFC 6570 URI template: the operator "!" is reserved`,
    ],
    [
      { uriTemplate: 'users://{user id}' },
      `${prefix}"uriTemplate" "users://{user id}" is not a valid RFC 6570 URI template: "user id" is not a valid variable name`,
    ],
    [
      { uriTemplate: 'users://{id:0}' },
      `${prefix}"uriTemplate" "users://{id:0}" is not a valid RFC 6570 URI template: the prefix :0 of "id" must be 1 to 9999`,
    ],
    [
      { uriTemplate: 'users://{id:3*}' },
      `${prefix}"uriTemplate" "users://{id:3*}" is not a valid RFC 6570 URI template: "id" has both a prefix and "*"`,
    ],
    [
      { uriTemplate: 'users://{id}/{id}' },
      `${prefix}"uriTemplate" "users://{id}/{id}" is not a valid RFC 6570 URI template: variable "id" appears twice`,
    ],
    [
      { uriTemplate: 'users://a b/{id}' },
      `${prefix}"uriTemplate" "users://a b/{id}" is not a valid RFC 6570 URI template: the character " " at 9 is not allowed`,
    ],
    [
      { uriTemplate: 'users://%zz/{id}' },
      `${prefix}"uriTemplate" "users://%zz/{id}" is not a valid RFC 6570 URI template: "%" at 8 starts no percent-encoding`,
    ],
    [
      { uriTemplate: 'config://app' },
      `${prefix}"uriTemplate" "config://app" has no variable: use @StaticResource({ uri: "config://app" }) for a resource with a fixed URI`,
    ],
    [
      { uriTemplate: '{scheme}://x' },
      `${prefix}"uriTemplate" "{scheme}://x" must start with a URI scheme, such as "file:///{+path}" or "users://{id}"`,
    ],
    [{ uriTemplate: 'a://{b}', args: 'Vars' }, `${prefix}"args" must be a class, got a string`],
    [
      { uriTemplate: 'a://{b}', size: 3 },
      `${prefix}has no option "size" (known options: uriTemplate, name, title, description, mimeType, annotations, args)`,
    ],
  ];
  for (const [options, message] of cases) assert.equal(refusal(ResourceTemplate(options as never)), message);
});

test('@Prompt records its options; description is required, the name must follow the MCP name rule', () => {
  class ReviewArgs {}
  @Prompt({ name: 'code_review', title: 'Code review', description: 'Review a diff', args: ReviewArgs })
  class Review {
    messages() {
      return 'review';
    }
  }
  assert.deepEqual(getPromptOptions(Review), {
    name: 'code_review',
    title: 'Code review',
    description: 'Review a diff',
    args: ReviewArgs,
  });
  class Twin {}
  definePrompt(Twin, { description: 'Twin' });
  assert.deepEqual(getPromptOptions(Twin), { description: 'Twin' });

  const prefix = '@Prompt() on class Subject: ';
  const cases: [unknown, string][] = [
    [{}, `${prefix}"description" is required and must be a string, got nothing`],
    [
      { description: 'd', name: 'code review' },
      `${prefix}name "code review" is not a valid prompt name (1 to 128 of A-Z a-z 0-9 _ - .)`,
    ],
    [{ description: 'd', name: 5 }, `${prefix}"name" must be a string, got a number`],
    [{ description: 'd', args: {} }, `${prefix}"args" must be a class, got an object`],
    [
      { description: 'd', arguments: [] },
      `${prefix}has no option "arguments" (known options: name, title, description, args)`,
    ],
  ];
  for (const [options, message] of cases) assert.equal(refusal(Prompt(options as never)), message);
});

test('the resource and prompt decorators decorate classes only', () => {
  const target = { constructor: class Host {} };
  for (const [decorator, name] of [
    [StaticResource({ uri: 'a:b' }), '@StaticResource()'],
    [ResourceTemplate({ uriTemplate: 'a://{b}' }), '@ResourceTemplate()'],
    [Prompt({ description: 'd' }), '@Prompt()'],
  ] as const) {
    assert.throws(() => (decorator as unknown as (...args: unknown[]) => void)(target, 'method', { value: () => 1 }), {
      name: 'DecoratorError',
      message: `${name} decorates a class, but it was applied to member Host.method`,
    });
  }
});

test('a class is one tool, one resource, one template or one prompt: a second kind is refused, naming both', () => {
  assert.throws(
    () => {
      @StaticResource({ uri: 'a:b' })
      @Prompt({ description: 'd' })
      class Both {}
      return Both;
    },
    {
      name: 'DecoratorError',
      message:
        '@StaticResource() on class Both: the class is already marked @Prompt(); a class is one tool, one resource, one resource template or one prompt (write a class for each)',
    },
  );
  assert.throws(
    () => {
      @Tool({ description: 'd' })
      @ResourceTemplate({ uriTemplate: 'a://{b}' })
      class Both {}
      return Both;
    },
    {
      name: 'DecoratorError',
      message:
        '@Tool() on class Both: the class is already marked @ResourceTemplate(); a class is one tool, one resource, one resource template or one prompt (write a class for each)',
    },
  );
});

test('@Resource(key) stays the scheduling claim: an MCP resource written the @rekog/mcp-nest way names the right decorator', () => {
  const prefix = '@Resource() on class Subject: ';
  assert.equal(
    refusal(Resource({ uri: 'mcp://hello-world', name: 'hello' } as never)),
    `${prefix}{ uri } looks like an MCP resource, but @Resource(key) is the scheduling claim of a tool (a "<kind>:<id>" key such as "shell:session"); to serve an MCP resource write @StaticResource({ uri, ... }) on a class with a read() method`,
  );
  assert.equal(
    refusal(Resource({ uri: 'mcp://users/{id}' } as never)),
    `${prefix}{ uri } with {variables} looks like an MCP resource, but @Resource(key) is the scheduling claim of a tool (a "<kind>:<id>" key such as "shell:session"); to serve an MCP resource write @ResourceTemplate({ uriTemplate, ... }) on a class with a read() method`,
  );
  assert.equal(
    refusal(Resource({ uriTemplate: 'mcp://users/{id}' } as never)),
    `${prefix}{ uriTemplate } looks like an MCP resource, but @Resource(key) is the scheduling claim of a tool (a "<kind>:<id>" key such as "shell:session"); to serve an MCP resource write @ResourceTemplate({ uriTemplate, ... }) on a class with a read() method`,
  );
  assert.equal(
    refusal(Resource({ name: 'x' } as never)),
    `${prefix}the key must be a non-empty string without spaces such as "shell:session", got {"name":"x"}`,
  );
});

test('@Complete marks one method per argument; a second one, an empty name or a non-method target is refused at once', () => {
  class Review {
    @Complete('language')
    languages(value: string) {
      return ['ts', 'go'].filter((l) => l.startsWith(value));
    }
    paths() {
      return [];
    }
  }
  defineComplete(Review, 'path', 'paths');
  assert.deepEqual(
    [...getCompleters(Review)],
    [
      ['language', 'languages'],
      ['path', 'paths'],
    ],
  );
  assert.throws(
    () => {
      class Twice {
        @Complete('language')
        one() {
          return [];
        }
        @Complete('language')
        two() {
          return [];
        }
      }
      return Twice;
    },
    {
      name: 'DecoratorError',
      message: '@Complete(): Twice already completes "language" with one(); one method completes one argument',
    },
  );
  assert.throws(
    () => {
      class Blank {
        @Complete(' ')
        one() {
          return [];
        }
      }
      return Blank;
    },
    {
      name: 'DecoratorError',
      message:
        '@Complete() on member Blank.one: the argument (or variable) to complete must be a non-empty string, got " "',
    },
  );
  assert.throws(() => (Complete('x') as unknown as (cls: Function) => void)(class Cls {}), {
    name: 'DecoratorError',
    message: '@Complete() decorates an instance method, but it was applied to class Cls',
  });
  assert.throws(() => defineComplete(Review, 'x', 'missing'), {
    name: 'DecoratorError',
    message: '@Complete() decorates an instance method, but it was applied to member Review.missing',
  });
});
