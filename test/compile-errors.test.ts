import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Args,
  ContractError,
  Facts,
  Prompt,
  ResourceTemplate,
  StaticResource,
  Tool,
  compile,
  type CallContext,
} from '../src/index.js';
import { issuesOf } from './support/compile-helpers.js';

test('a class without @Tool is missing-tool-decorator', () => {
  class Plain {
    execute() {
      return 'ok';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Plain])),
    [
      {
        code: 'missing-tool-decorator',
        className: 'Plain',
        message: "class Plain has no @Tool(): add @Tool({ description: '...' }) to it, or leave it out of compile()",
      },
    ],
  );
  assert.deepEqual(
    issuesOf(() => compile([new Plain()])),
    [
      {
        code: 'missing-tool-decorator',
        className: 'Plain',
        message: "class Plain has no @Tool(): add @Tool({ description: '...' }) to it, or leave it out of compile()",
      },
    ],
  );
});

test('a resource, template or prompt class given to compile() is told where it goes', () => {
  @StaticResource({ uri: 'docs://style', description: 'Style' })
  class Style {
    read() {
      return 'style';
    }
  }
  @ResourceTemplate({ uriTemplate: 'notes://{name}', description: 'A note' })
  class Note {
    read() {
      return 'note';
    }
  }
  @Prompt({ description: 'Review' })
  class Review {
    messages() {
      return 'review';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Style, Note, new Review()])).map((issue) => issue.message),
    [
      'class Style is a @StaticResource(), not a tool: pass it to compileResources() and serve it with the "resources" option, and leave it out of compile()',
      'class Note is a @ResourceTemplate(), not a tool: pass it to compileResources() and serve it with the "resources" option, and leave it out of compile()',
      'class Review is a @Prompt(), not a tool: pass it to compilePrompts() and serve it with the "prompts" option, and leave it out of compile()',
    ],
  );
});

test('a subclass of a tool class needs its own @Tool', () => {
  @Tool({ description: 'Base' })
  class BaseTool {
    execute() {
      return 'base';
    }
  }
  class Derived extends BaseTool {}
  assert.deepEqual(
    issuesOf(() => compile([Derived])),
    [
      {
        code: 'missing-tool-decorator',
        className: 'Derived',
        message:
          "class Derived has no @Tool() of its own (its base class BaseTool has one, but @Tool() is not inherited): add @Tool({ description: '...' }) to Derived",
      },
    ],
  );
});

test('something that is no tool at all is named by its position and kind', () => {
  assert.deepEqual(
    issuesOf(() => compile([42, null, []])),
    [
      {
        code: 'missing-tool-decorator',
        className: '',
        message:
          'item 0 is not a tool: expected a @Tool() class, an instance of one, or a contract tool object with name, description and execute, got a number',
      },
      {
        code: 'missing-tool-decorator',
        className: '',
        message:
          'item 1 is not a tool: expected a @Tool() class, an instance of one, or a contract tool object with name, description and execute, got null',
      },
      {
        code: 'missing-tool-decorator',
        className: '',
        message:
          'item 2 is not a tool: expected a @Tool() class, an instance of one, or a contract tool object with name, description and execute, got an array',
      },
    ],
  );
  assert.throws(() => compile('x' as never), {
    name: 'TypeError',
    message: 'compile() takes an array of tool classes, instances and contract tools, got a string',
  });
});

test('a blank description is missing-description', () => {
  @Tool({ description: '   ' })
  class Blank {
    execute() {
      return 'ok';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Blank])),
    [
      {
        code: 'missing-description',
        className: 'Blank',
        member: 'description',
        message:
          "class Blank: @Tool() has a blank description: tell the model what the tool does in @Tool({ description: '...' })",
      },
    ],
  );
});

test('a class without execute() is missing-execute', () => {
  @Tool({ description: 'Does nothing' })
  class NoExecute {
    run() {
      return 'ok';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([NoExecute])),
    [
      {
        code: 'missing-execute',
        className: 'NoExecute',
        member: 'execute',
        message: "class NoExecute has no execute() method: add execute(args, ctx) returning the tool's output",
      },
    ],
  );
});

test('resolve returning an instance without execute() is missing-execute', () => {
  @Tool({ description: 'Resolved elsewhere' })
  class Elsewhere {
    execute() {
      return 'ok';
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Elsewhere], { resolve: () => ({}) })),
    [
      {
        code: 'missing-execute',
        className: 'Elsewhere',
        member: 'execute',
        message:
          'class Elsewhere: the instance resolve() returned has no execute() method: return an instance of Elsewhere',
      },
    ],
  );
});

test('an execute() with untyped parameters is invalid-args-class', () => {
  @Tool({ description: 'Untyped' })
  class Untyped {
    execute(args: { path: string }, _ctx: CallContext) {
      return args.path;
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Untyped])),
    [
      {
        code: 'invalid-args-class',
        className: 'Untyped',
        member: 'execute',
        message:
          'class Untyped: the arguments class of execute() cannot be inferred, because TypeScript records parameter types only on decorated methods: add @Tool({ args: YourArgs }), or mark the parameter with @Args() and type it with a class (for a tool without arguments, give execute() no parameters or write @Tool({ args: undefined }))',
      },
    ],
  );
});

test('@Args() on a parameter typed with an interface is invalid-args-class', () => {
  interface Shape {
    path: string;
  }
  @Tool({ description: 'Interface typed' })
  class InterfaceTyped {
    execute(@Args() args: Shape) {
      return args.path;
    }
  }
  @Tool({ description: 'String typed' })
  class StringTyped {
    execute(@Args() args: string) {
      return args;
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([InterfaceTyped, StringTyped])),
    [
      {
        code: 'invalid-args-class',
        className: 'InterfaceTyped',
        member: 'execute',
        message:
          "class InterfaceTyped: execute()'s first parameter is typed Object (an interface, a type alias, an object literal type or any), which is no class to build a schema from: add @Tool({ args: YourArgs }) or type the parameter with an arguments class",
      },
      {
        code: 'invalid-args-class',
        className: 'StringTyped',
        member: 'execute',
        message:
          "class StringTyped: execute()'s first parameter is typed String, which is no class to build a schema from: add @Tool({ args: YourArgs }) or type the parameter with an arguments class",
      },
    ],
  );
});

test('args naming a class unrelated to the typed parameter is invalid-args-class', () => {
  class First {}
  class Second {}
  @Tool({ description: 'Mismatch', args: First })
  class Mismatch {
    execute(@Args() args: Second) {
      return String(args);
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([Mismatch])),
    [
      {
        code: 'invalid-args-class',
        className: 'Mismatch',
        member: 'execute',
        message:
          "class Mismatch: @Tool() names args First, but execute()'s first parameter is typed Second; make them the same class (or type the parameter with a base class of First)",
      },
    ],
  );
});

test('resolve that throws, returns a Promise or a non-object is resolve-failed', () => {
  @Tool({ description: 'Needs a root' })
  class NeedsRoot {
    constructor(readonly root: string) {
      if (typeof root !== 'string') throw new Error('root is required');
    }
    execute() {
      return this.root;
    }
  }
  assert.deepEqual(
    issuesOf(() => compile([NeedsRoot])),
    [
      {
        code: 'resolve-failed',
        className: 'NeedsRoot',
        message:
          'class NeedsRoot: new NeedsRoot() threw while making the instance: root is required; fix the constructor, or pass compile() a resolve function or an instance',
      },
    ],
  );
  assert.deepEqual(
    issuesOf(() =>
      compile([NeedsRoot], {
        resolve: () => {
          throw new Error('no provider for NeedsRoot');
        },
      }),
    ),
    [
      {
        code: 'resolve-failed',
        className: 'NeedsRoot',
        message:
          'class NeedsRoot: resolve() threw while making the instance: no provider for NeedsRoot; fix the resolve function or the constructor',
      },
    ],
  );
  assert.deepEqual(
    issuesOf(() => compile([NeedsRoot], { resolve: async (cls) => new (cls as typeof NeedsRoot)('/') })),
    [
      {
        code: 'resolve-failed',
        className: 'NeedsRoot',
        message:
          'class NeedsRoot: resolve() returned a Promise, but compile() is synchronous: await the instance first and pass it to compile() in place of the class',
      },
    ],
  );
  assert.deepEqual(
    issuesOf(() => compile([NeedsRoot], { resolve: () => 'root' as unknown as object })),
    [
      {
        code: 'resolve-failed',
        className: 'NeedsRoot',
        message: 'class NeedsRoot: resolve() returned a string, not an instance: return an instance of NeedsRoot',
      },
    ],
  );
  assert.equal(
    compile([NeedsRoot], { resolve: (cls) => new (cls as typeof NeedsRoot)('/srv') })[0]!.name,
    'needs_root',
  );
  assert.equal(compile([new NeedsRoot('/srv')])[0]!.name, 'needs_root');
});

test('resolve is not called for a class with other problems', () => {
  @Tool({ description: ' ' })
  class Broken {
    execute() {
      return 'ok';
    }
  }
  const resolved: string[] = [];
  const issues = issuesOf(() =>
    compile([Broken], {
      resolve: (cls) => {
        resolved.push(cls.name);
        return new (cls as typeof Broken)();
      },
    }),
  );
  assert.deepEqual(
    issues.map((i) => i.code),
    ['missing-description'],
  );
  assert.deepEqual(resolved, []);
});

test('two tools with one name are duplicate-name, listing both', () => {
  @Tool({ name: 'search', description: 'Search the web' })
  class WebSearch {
    execute() {
      return 'web';
    }
  }
  @Tool({ description: 'Search files' })
  class SearchTool {
    execute() {
      return 'files';
    }
  }
  const handBuilt = { name: 'search', description: 'Search by hand', execute: async () => 'hand' };
  assert.deepEqual(
    issuesOf(() => compile([WebSearch, SearchTool, handBuilt])),
    [
      {
        code: 'duplicate-name',
        className: '',
        message:
          'tool name "search" is used 3 times (class WebSearch, class SearchTool, contract tool "search"): names must be unique in a set; give all but one another name (@Tool({ name: \'...\' }) on a class, "name" on a contract tool)',
      },
    ],
  );
});

test('every problem of every tool is gathered into one ContractError', () => {
  @Tool({ description: '' })
  class First {
    run() {
      return 'x';
    }
  }
  class Second {}
  let thrown: unknown;
  try {
    compile([First, Second, { name: 'bad name', description: 'x', execute: async () => 'x' }]);
  } catch (err) {
    thrown = err;
  }
  assert.ok(thrown instanceof ContractError);
  assert.equal(thrown.code, 'missing-description');
  assert.equal(
    thrown.message,
    [
      'toolwright: 4 problems in the tool contract:',
      "  - [missing-description] class First: @Tool() has a blank description: tell the model what the tool does in @Tool({ description: '...' })",
      "  - [missing-execute] class First has no execute() method: add execute(args, ctx) returning the tool's output",
      "  - [missing-tool-decorator] class Second has no @Tool(): add @Tool({ description: '...' }) to it, or leave it out of compile()",
      '  - [invalid-name] the contract tool at item 2 has name "bad name", which is not a valid MCP tool name: give it a "name" of 1 to 128 of A-Z a-z 0-9 _ - .',
    ].join('\n'),
  );
});

test('@Facts() on something that is not a method at compile time is reported', () => {
  @Tool({ description: 'Facts gone' })
  class FactsGone {
    execute() {
      return 'ok';
    }
    @Facts()
    facts() {
      return { calls: null };
    }
  }
  (FactsGone.prototype as unknown as Record<string, unknown>).facts = 'not a method';
  assert.deepEqual(
    issuesOf(() => compile([FactsGone])),
    [
      {
        code: 'missing-execute',
        className: 'FactsGone',
        member: 'facts',
        message: 'class FactsGone: @Facts() marks facts, which is not a method: mark a method facts(args, ctx)',
      },
    ],
  );
});
