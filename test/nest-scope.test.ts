import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Inject,
  Injectable,
  Module,
  Scope,
  UseGuards,
  type CallHandler,
  type CanActivate,
  type DynamicModule,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, REQUEST } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Facts, Tool, type CallContext } from '../src/index.js';
import { createCallContext } from '../src/runtime/index.js';
import { ToolwrightServer, toolCallOf, type NestToolCall } from '../src/nest/index.js';
import { startedInMemory } from './support/nest-context.js';
import { textResult as text } from './support/text.js';

const started = (root: Function | DynamicModule) =>
  startedInMemory(root, { name: 'nest-scope', version: '1.0.0', transport: 'none' });

/**
 * Request scope through the call core's per-call resolution (`compile({ resolveForCall })`): a
 * request-scoped tool's instance is made by Nest for each call, with the call's context, only
 * once the guards let the call through and its arguments are valid; a singleton serves every
 * call with its one instance; a tool whose own guard is request-scoped gets that guard made for
 * the call too. About 2 s.
 */

const TIMEOUT = { timeout: 30_000 };

/** Waits (bounded) until `count()` reaches `wanted`. */
async function reach(count: () => number, wanted: number): Promise<void> {
  for (let tries = 0; count() < wanted && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(count(), wanted);
}

test(
  'two calls at once of a request-scoped tool see two instances, made with their own call; a singleton sees one',
  TIMEOUT,
  async () => {
    let scopedMade = 0;
    let singletonsMade = 0;
    const releases: (() => void)[] = [];
    @Injectable({ scope: Scope.REQUEST })
    @Tool({ name: 'scoped', description: 'A request-scoped tool', args: undefined })
    class ScopedTool {
      readonly id = ++scopedMade;
      constructor(@Inject(REQUEST) private readonly request: NestToolCall) {}
      async execute(_args: object, ctx: CallContext): Promise<string> {
        await new Promise<void>((resolve) => releases.push(resolve));
        return `scoped ${this.id}, made for its own call: ${this.request.context === ctx}`;
      }
    }
    @Injectable()
    @Tool({ name: 'single', description: 'A singleton tool', args: undefined })
    class SingleTool {
      readonly id = ++singletonsMade;
      async execute(): Promise<string> {
        await new Promise<void>((resolve) => releases.push(resolve));
        return `single ${this.id}`;
      }
    }
    @Module({ providers: [ScopedTool, SingleTool] })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      assert.equal(scopedMade, 0, 'nothing is made for a request-scoped tool before its first call');
      const calls = [
        client.callTool({ name: 'scoped', arguments: {} }),
        client.callTool({ name: 'scoped', arguments: {} }),
        client.callTool({ name: 'single', arguments: {} }),
        client.callTool({ name: 'single', arguments: {} }),
      ];
      await reach(() => releases.length, 4);
      for (const release of releases) release();
      const texts = (await Promise.all(calls)).map((result) => (result.content as { text: string }[])[0]!.text);
      assert.deepEqual(texts.slice(0, 2).sort(), [
        'scoped 1, made for its own call: true',
        'scoped 2, made for its own call: true',
      ]);
      assert.deepEqual(texts.slice(2), ['single 1', 'single 1']);
      assert.deepEqual([scopedMade, singletonsMade], [2, 1]);
    } finally {
      await close();
    }
  },
);

test(
  'a call the guards refuse, or whose arguments are invalid, never makes a request-scoped instance',
  TIMEOUT,
  async () => {
    let made = 0;
    @Injectable()
    class OnlyAdaGuard implements CanActivate {
      canActivate(context: never): boolean {
        return (toolCallOf(context)!.arguments as { name?: unknown }).name === 'Ada';
      }
    }
    class NameArgs {
      @IsString()
      name!: string;
    }
    @Injectable({ scope: Scope.REQUEST })
    @Tool({ name: 'greet', description: 'Greet', args: NameArgs })
    @UseGuards(OnlyAdaGuard)
    class GreetTool {
      readonly id = ++made;
      execute(args: NameArgs): string {
        return `hello ${args.name} from instance ${this.id}`;
      }
    }
    @Module({ providers: [OnlyAdaGuard, GreetTool] })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      assert.deepEqual(
        await client.callTool({ name: 'greet', arguments: { name: 'Bob' } }),
        text('Forbidden resource', true),
      );
      assert.equal(made, 0, 'a refused call made no instance');
      assert.deepEqual(
        await client.callTool({ name: 'greet', arguments: { name: 'Ada', extra: 1 } }),
        text('invalid arguments: /: must NOT have additional property "extra"', true),
      );
      assert.equal(made, 0, 'an invalid call made no instance');
      assert.deepEqual(
        await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }),
        text('hello Ada from instance 1'),
      );
      assert.equal(made, 1);
    } finally {
      await close();
    }
  },
);

test(
  'a request-scoped guard of a request-scoped tool is made for the call, with the call as its REQUEST',
  TIMEOUT,
  async () => {
    const guarded: string[] = [];
    @Injectable({ scope: Scope.REQUEST })
    class CallerGuard implements CanActivate {
      constructor(@Inject(REQUEST) private readonly request: NestToolCall) {}
      canActivate(): boolean {
        guarded.push(`${this.request.tool} ${JSON.stringify(this.request.arguments)}`);
        return (this.request.arguments as { open?: unknown }).open === true;
      }
    }
    class DoorArgs {
      @IsOptional()
      @IsBoolean()
      open?: boolean;
    }
    @Injectable({ scope: Scope.REQUEST })
    @Tool({ name: 'door', description: 'A door', args: DoorArgs })
    @UseGuards(CallerGuard)
    class DoorTool {
      constructor(@Inject(REQUEST) private readonly request: NestToolCall) {}
      execute(): string {
        return `opened for ${this.request.tool}`;
      }
    }
    @Module({ providers: [CallerGuard, DoorTool] })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      assert.deepEqual(
        await client.callTool({ name: 'door', arguments: { open: false } }),
        text('Forbidden resource', true),
      );
      assert.deepEqual(await client.callTool({ name: 'door', arguments: {} }), text('Forbidden resource', true));
      assert.deepEqual(await client.callTool({ name: 'door', arguments: { open: true } }), text('opened for door'));
      assert.deepEqual(guarded, ['door {"open":false}', 'door {}', 'door {"open":true}']);
    } finally {
      await close();
    }
  },
);

test('facts of a request-scoped tool run on an instance made for the question', TIMEOUT, async () => {
  let made = 0;
  class PathArgs {
    @IsString()
    path!: string;
  }
  @Injectable({ scope: Scope.REQUEST })
  @Tool({ name: 'remove', description: 'Remove a file', args: PathArgs })
  class RemoveTool {
    readonly id = ++made;
    execute(): string {
      return 'removed';
    }
    @Facts()
    facts(args: PathArgs): object {
      return { calls: [{ tool: 'stat', args: { path: args.path, by: this.id } }] };
    }
  }
  @Module({ providers: [RemoveTool] })
  class AppModule {}

  const { app, close } = await started(AppModule);
  try {
    const tool = app.get(ToolwrightServer).tools.find((served) => served.name === 'remove')!;
    const ctx = createCallContext({ call: { id: 'q1', tool: 'remove', args: {} } });
    assert.deepEqual(await tool.facts!({ path: '/tmp/a' }, ctx), {
      calls: [{ tool: 'stat', args: { path: '/tmp/a', by: 1 } }],
    });
    assert.deepEqual(await tool.facts!({ path: '/tmp/b' }, ctx), {
      calls: [{ tool: 'stat', args: { path: '/tmp/b', by: 2 } }],
    });
    await assert.rejects(
      Promise.resolve().then(() => tool.facts!({ path: 5 } as never, ctx)),
      { message: 'invalid arguments: /path: must be string' },
    );
    assert.equal(made, 2);
  } finally {
    await close();
  }
});

test(
  'a request-scoped global guard and a transient global interceptor are made for every call, never skipped nor half-built',
  TIMEOUT,
  async () => {
    const guarded: string[] = [];
    let interceptorsMade = 0;
    @Injectable({ scope: Scope.REQUEST })
    class CallGuard implements CanActivate {
      constructor(@Inject(REQUEST) private readonly request: NestToolCall) {}
      canActivate(): boolean {
        guarded.push(this.request.tool);
        return this.request.tool !== 'closed';
      }
    }
    @Injectable({ scope: Scope.TRANSIENT })
    class Tagger implements NestInterceptor {
      private readonly id = ++interceptorsMade;
      intercept(_context: never, next: CallHandler): Observable<unknown> {
        return next.handle().pipe(map((output) => `${String(output)} (tagged by ${this.id})`));
      }
    }
    @Injectable()
    @Tool({ name: 'open', description: 'Open', args: undefined })
    class OpenTool {
      execute(): string {
        return 'open';
      }
    }
    @Injectable()
    @Tool({ name: 'closed', description: 'Closed', args: undefined })
    class ClosedTool {
      execute(): string {
        return 'closed';
      }
    }
    @Module({
      providers: [
        { provide: APP_GUARD, useClass: CallGuard },
        { provide: APP_INTERCEPTOR, useClass: Tagger },
        OpenTool,
        ClosedTool,
      ],
    })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      const before = interceptorsMade;
      assert.deepEqual(await client.callTool({ name: 'open', arguments: {} }), text(`open (tagged by ${before + 1})`));
      assert.deepEqual(await client.callTool({ name: 'closed', arguments: {} }), text('Forbidden resource', true));
      assert.deepEqual(await client.callTool({ name: 'open', arguments: {} }), text(`open (tagged by ${before + 3})`));
      assert.deepEqual(guarded, ['open', 'closed', 'open']);
    } finally {
      await close();
    }
  },
);
