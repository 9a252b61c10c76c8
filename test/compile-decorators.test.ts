import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Args,
  Barrier,
  DecoratorError,
  Description,
  Destructive,
  Facts,
  Field,
  Flow,
  Idempotent,
  OpenWorld,
  ReadOnly,
  Replay,
  Resource,
  Sequential,
  Timeout,
  Tool,
  compile,
  defineClaims,
  defineDescription,
  defineFacts,
  defineField,
  defineTool,
  type ContractTool,
} from '../src/index.js';
import { isFactual, replayOf, resourceOf } from '../src/runtime/index.js';
import { addClaims, getClaims } from '../src/decorators/metadata.js';
import { contextFor } from './support/compile-helpers.js';

/** The contract properties of a compiled tool besides the ones every tool has. */
function claimsOf(tool: ContractTool): Record<string, unknown> {
  const {
    name: _n,
    description: _d,
    parameters: _p,
    execute: _e,
    ...rest
  } = tool as ContractTool & Record<string, unknown>;
  return rest;
}

function throwsDecoratorError(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DecoratorError, `expected a DecoratorError, got ${String(err)}`);
    assert.equal(err.message, message);
    return true;
  });
}

test('hint decorators set exactly the annotations recorded', () => {
  @Tool({ description: 'Reads' })
  @ReadOnly()
  class Reader {
    execute() {
      return 'r';
    }
  }
  @Tool({ description: 'Deletes' })
  @Destructive()
  @Idempotent()
  @OpenWorld()
  class Deleter {
    execute() {
      return 'd';
    }
  }
  @Tool({ description: 'States nothing' })
  class Silent {
    execute() {
      return 's';
    }
  }
  const [reader, deleter, silent] = compile([Reader, Deleter, Silent]);
  assert.deepEqual(claimsOf(reader!), { annotations: { readOnly: true } });
  assert.deepEqual(claimsOf(deleter!), { annotations: { openWorld: true, idempotent: true, destructive: true } });
  assert.deepEqual(claimsOf(silent!), {});
  assert.equal(silent!.annotations, undefined);
});

test('Sequential, Barrier, Resource, Flow, Replay and Timeout land on the tool', async () => {
  @Tool({ description: 'Runs shell commands' })
  @Sequential()
  @Resource('shell:session')
  @Replay('keyed')
  class Shell {
    execute() {
      return 'ran';
    }
  }
  @Tool({ description: 'Commits' })
  @Barrier()
  @Timeout(5000)
  class Commit {
    execute() {
      return 'committed';
    }
  }
  @Tool({ description: 'Fetches pages' })
  @Flow({ readsUntrusted: true, sends: true })
  @Resource('net:fetch')
  @Replay('safe')
  class Fetch {
    execute() {
      return 'page';
    }
  }
  const [shell, commit, fetch] = compile([Shell, Commit, Fetch]);
  assert.deepEqual(claimsOf(shell!), { replay: 'keyed', resource: 'shell:session', sequential: true });
  assert.equal(resourceOf(shell!), '', 'a sequential tool has no resource');
  assert.deepEqual(claimsOf(commit!), { timeoutMs: 5000, barrier: true });
  assert.deepEqual(claimsOf(fetch!), {
    replay: 'safe',
    resource: 'net:fetch',
    flow: { readsUntrusted: true, sends: true },
  });
  assert.equal(resourceOf(fetch!), 'net:fetch');
  assert.equal(await replayOf(fetch!, {}, contextFor('fetch')), 'safe');
  assert.equal(await replayOf(commit!, {}, contextFor('commit')), 'unknown');
});

test('claims other decorators record flow through compile unchanged', () => {
  @Tool({ description: 'Bounded' })
  class Bounded {
    execute() {
      return 'x';
    }
  }
  const requirement = { capabilities: ['read'], subject: () => '/' };
  addClaims(Bounded, { maxOutputChars: 500, requires: [requirement] });
  addClaims(Bounded, { ['futureClaim' as 'replay']: 'anything' as never });
  const [tool] = compile([Bounded]);
  assert.deepEqual(claimsOf(tool!), { maxOutputChars: 500, requires: [requirement], futureClaim: 'anything' });
  assert.equal(tool!.requires![0], requirement);
});

test('a claim never overrides what compile sets itself', async () => {
  @Tool({ description: 'Guarded' })
  class Guarded {
    execute() {
      return 'real';
    }
  }
  addClaims(Guarded, { ['name' as 'resource']: 'hijacked', ['execute' as 'replay']: 'x' as never });
  const [tool] = compile([Guarded]);
  assert.equal(tool!.name, 'guarded');
  assert.equal(await tool!.execute({}, contextFor('guarded')), 'real');
});

test('plain-function twins do what the decorators do', async () => {
  class Twin {
    execute() {
      return 'twin';
    }
    answer() {
      return { calls: [] };
    }
  }
  defineTool(Twin, { name: 'twin', description: 'Built without decorator syntax', title: 'Twin' });
  defineClaims.readOnly(Twin);
  defineClaims.destructive(Twin);
  defineClaims.idempotent(Twin);
  defineClaims.openWorld(Twin);
  defineClaims.sequential(Twin);
  defineClaims.barrier(Twin);
  defineClaims.resource(Twin, 'db:main');
  defineClaims.flow(Twin, { sends: true });
  defineClaims.replay(Twin, 'safe');
  defineFacts(Twin, 'answer');
  const [tool] = compile([Twin]);
  const { facts, ...rest } = claimsOf(tool!);
  assert.deepEqual(rest, {
    title: 'Twin',
    annotations: { readOnly: true, destructive: true, idempotent: true, openWorld: true },
    sequential: true,
    barrier: true,
    resource: 'db:main',
    flow: { sends: true },
    replay: 'safe',
  });
  assert.deepEqual(await (facts as NonNullable<typeof tool.facts>)({}, contextFor('twin')), { calls: [] });
  assert.equal(isFactual(tool!), true);
  assert.deepEqual(await tool!.facts!({}, contextFor('twin')), { calls: [] });
});

test('class decorators refuse anything but a class', () => {
  const member = (decorator: ClassDecorator) => () =>
    (decorator as unknown as (t: object, k: string, d: PropertyDescriptor) => void)(
      { constructor: class Holder {} }.constructor.prototype,
      'run',
      { value: () => 1 },
    );
  throwsDecoratorError(member(ReadOnly()), '@ReadOnly() decorates a class, but it was applied to member Holder.run');
  throwsDecoratorError(
    member(Destructive()),
    '@Destructive() decorates a class, but it was applied to member Holder.run',
  );
  throwsDecoratorError(
    member(Idempotent()),
    '@Idempotent() decorates a class, but it was applied to member Holder.run',
  );
  throwsDecoratorError(member(OpenWorld()), '@OpenWorld() decorates a class, but it was applied to member Holder.run');
  throwsDecoratorError(
    member(Sequential()),
    '@Sequential() decorates a class, but it was applied to member Holder.run',
  );
  throwsDecoratorError(member(Barrier()), '@Barrier() decorates a class, but it was applied to member Holder.run');
  throwsDecoratorError(
    member(Resource('a:b')),
    '@Resource() decorates a class, but it was applied to member Holder.run',
  );
  throwsDecoratorError(
    member(Flow({ sends: true })),
    '@Flow() decorates a class, but it was applied to member Holder.run',
  );
  throwsDecoratorError(member(Replay('safe')), '@Replay() decorates a class, but it was applied to member Holder.run');
  throwsDecoratorError(
    member(Tool({ description: 'x' })),
    '@Tool() decorates a class, but it was applied to member Holder.run',
  );
});

test('claim decorators check their arguments and name the class they were applied to', () => {
  class BadTool {}
  const onClass = (decorator: ClassDecorator) => () => decorator(BadTool);
  throwsDecoratorError(
    onClass(Resource('')),
    '@Resource() on class BadTool: the key must be a non-empty string without spaces such as "shell:session", got ""',
  );
  throwsDecoratorError(
    onClass(Resource('shell session')),
    '@Resource() on class BadTool: the key must be a non-empty string without spaces such as "shell:session", got "shell session"',
  );
  throwsDecoratorError(
    onClass(Flow('sends' as never)),
    '@Flow() on class BadTool: takes an options object, got a string',
  );
  throwsDecoratorError(
    onClass(Flow({ leaks: true } as never)),
    '@Flow() on class BadTool: has no option "leaks" (known options: readsUntrusted, sends)',
  );
  throwsDecoratorError(
    onClass(Flow({ sends: 'yes' as never })),
    '@Flow() on class BadTool: "sends" must be a boolean, got a string',
  );
  throwsDecoratorError(
    onClass(Replay('unknown' as never)),
    '@Replay() on class BadTool: expected "safe" or "keyed", got "unknown" (leave it off for "unknown")',
  );
  assert.deepEqual(getClaims(BadTool), {});
});

test('a misused decorator fails while the class is being defined, naming the class', () => {
  throwsDecoratorError(() => {
    @Tool({ description: 5 } as never)
    class FooTool {}
    return FooTool;
  }, '@Tool() on class FooTool: "description" is required and must be a string, got a number');
  throwsDecoratorError(() => {
    @Resource('')
    class ShellTool {}
    return ShellTool;
  }, '@Resource() on class ShellTool: the key must be a non-empty string without spaces such as "shell:session", got ""');
});

test('@Tool checks its options and names the class', () => {
  class FooTool {}
  const on = (options: unknown) => () => Tool(options as never)(FooTool);
  throwsDecoratorError(on(undefined), '@Tool() on class FooTool: takes an options object, got nothing');
  throwsDecoratorError(on({}), '@Tool() on class FooTool: "description" is required and must be a string, got nothing');
  throwsDecoratorError(
    on({ description: 5 }),
    '@Tool() on class FooTool: "description" is required and must be a string, got a number',
  );
  throwsDecoratorError(
    on({ description: 'x', name: 'has space' }),
    '@Tool() on class FooTool: name "has space" is not a valid MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .)',
  );
  throwsDecoratorError(
    on({ description: 'x', name: 7 }),
    '@Tool() on class FooTool: "name" must be a string, got a number',
  );
  throwsDecoratorError(
    on({ description: 'x', args: 'Args' }),
    '@Tool() on class FooTool: "args" must be a class, got a string',
  );
  throwsDecoratorError(
    on({ description: 'x', result: null }),
    '@Tool() on class FooTool: "result" must be a class, got null',
  );
  throwsDecoratorError(
    on({ description: 'x', version: 2 }),
    '@Tool() on class FooTool: has no option "version" (known options: name, title, description, args, result, scopes)',
  );
});

test('member decorators refuse the wrong target and bad arguments', () => {
  class Target {
    field = 1;
    method() {
      return 1;
    }
  }
  const proto = Target.prototype;
  const methodDescriptor = Object.getOwnPropertyDescriptor(proto, 'method')!;
  throwsDecoratorError(
    () => Facts()(proto, 'field', undefined as never),
    '@Facts() decorates an instance method, but it was applied to member Target.field',
  );
  throwsDecoratorError(
    () => (Facts() as unknown as (t: unknown) => void)(Target),
    '@Facts() decorates an instance method, but it was applied to class Target',
  );
  throwsDecoratorError(
    () => Description('')(proto, 'field'),
    '@Description() on member Target.field: the text must be a non-empty string, got ""',
  );
  throwsDecoratorError(
    () =>
      (Description('text') as unknown as (t: object, k: string, d: PropertyDescriptor) => void)(
        proto,
        'method',
        methodDescriptor,
      ),
    '@Description() decorates an instance property of an arguments class, but it was applied to member Target.method',
  );
  throwsDecoratorError(
    () => Field({ bogus: 1 } as never)(proto, 'field'),
    '@Field() on member Target.field: has no option "bogus" (known options: description, title, examples, deprecated, default)',
  );
  throwsDecoratorError(
    () => Field({ examples: 'a' as never })(proto, 'field'),
    '@Field() on member Target.field: "examples" must be an array of example values, got a string',
  );
  throwsDecoratorError(
    () => Field({ deprecated: 'yes' as never })(proto, 'field'),
    '@Field() on member Target.field: "deprecated" must be a boolean, got a string',
  );
  throwsDecoratorError(
    () => Field({ title: 1 as never })(proto, 'field'),
    '@Field() on member Target.field: "title" must be a string, got a number',
  );
  throwsDecoratorError(
    () => (Field({ title: 'x' }) as unknown as (t: unknown) => void)(Target),
    '@Field() decorates an instance property of an arguments class, but it was applied to class Target',
  );
  throwsDecoratorError(
    () => Args()(proto, 'method', 0),
    '@Args() marks the first parameter of execute(), but it was applied to the Target.method() parameter 0',
  );
  throwsDecoratorError(
    () => Args()(proto, 'execute', 1),
    '@Args() marks the first parameter of execute(), but it was applied to the Target.execute() parameter 1',
  );
  throwsDecoratorError(
    () => Args()(Target, undefined, 0),
    '@Args() marks the first parameter of execute(), but it was applied to the constructor of Target',
  );
  throwsDecoratorError(
    () => defineDescription(Target, 'field', '  '),
    '@Description() on member Target.field: the text must be a non-empty string, got "  "',
  );
  throwsDecoratorError(
    () => defineField(Target, 'field', { nope: true } as never),
    '@Field() on member Target.field: has no option "nope" (known options: description, title, examples, deprecated, default)',
  );
});

test('a second @Facts() method on one class throws at once', () => {
  throwsDecoratorError(() => {
    class Twice {
      @Facts()
      first() {
        return { calls: null };
      }
      @Facts()
      second() {
        return { calls: null };
      }
    }
    return Twice;
  }, '@Facts(): Twice already answers facts with first(); a tool has one facts method');
});

test('@Args(Class) given something that is not a class fails as the class is defined, naming the member', () => {
  throwsDecoratorError(() => {
    class ShoutTool {
      execute(@Args('ShoutArgs' as never) _args: unknown) {
        return 'x';
      }
    }
    return ShoutTool;
  }, '@Args() on member ShoutTool.execute: the arguments class must be a class, got a string');
});
