import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BadRequestException,
  Catch,
  Inject,
  Injectable,
  Module,
  Scope,
  SetMetadata,
  UnauthorizedException,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type DynamicModule,
  type ExceptionFilter,
  type ArgumentsHost,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_GUARD, NestFactory, REQUEST, Reflector } from '@nestjs/core';
import { IsArray, IsInt, IsOptional, IsString } from 'class-validator';
import { map, type Observable } from 'rxjs';
import { ContractError, Tool, type CallContext } from '../src/index.js';
import { createPolicy } from '../src/runtime/index.js';
import {
  ToolwrightModule,
  ToolwrightServer,
  TOOLWRIGHT_COMPILE_OPTIONS,
  TOOLWRIGHT_OUTPUT_LIMITS,
  TOOLWRIGHT_POLICY,
  toolCallOf,
  type NestToolCall,
  type ToolwrightModuleOptions,
} from '../src/nest/index.js';
import { connect, until } from './support/server-harness.js';
import { startedInMemory, startFailure as startFailureOf } from './support/nest-context.js';
import { textResult as text } from './support/text.js';

const startFailure = (root: Function, options: ToolwrightModuleOptions = SERVING) => startFailureOf(root, options);

const TIMEOUT = { timeout: 30_000 };
const SERVING: ToolwrightModuleOptions = { name: 'nest-test', version: '1.0.0', transport: 'none' };

/** An application context of `root` (with ToolwrightModule imported) and an in-memory MCP client of its tools. */
const started = (root: Function | DynamicModule, options: ToolwrightModuleOptions = SERVING) =>
  startedInMemory(root, options);

test(
  'tools in several modules are discovered, compiled with the instances Nest built and served',
  TIMEOUT,
  async () => {
    @Injectable()
    class Clock {
      now(): string {
        return '12:00';
      }
    }
    class EchoArgs {
      @IsString()
      text!: string;
    }
    @Injectable()
    @Tool({ description: 'Tell the time' })
    class TimeTool {
      constructor(private readonly clock: Clock) {}
      execute(): string {
        return `it is ${this.clock.now()}`;
      }
    }
    @Injectable()
    @Tool({ name: 'echo', description: 'Echo the text', args: EchoArgs })
    class Echo {
      execute(args: EchoArgs): string {
        return `${args.text} (${args instanceof EchoArgs ? 'an EchoArgs' : 'a plain object'})`;
      }
    }
    @Injectable()
    class NotATool {}
    @Tool({ name: 'under_token', description: 'Provided under a token of its own' })
    class TokenTool {
      execute(): string {
        return 'found through useClass';
      }
    }
    @Tool({ name: 'as_value', description: 'Provided as a value' })
    class ValueTool {
      constructor(private readonly word: string) {}
      execute(): string {
        return `found through useValue: ${this.word}`;
      }
    }
    @Module({ providers: [Clock, TimeTool] })
    class TimeModule {}
    @Module({ imports: [TimeModule], providers: [{ provide: 'TOKEN_TOOL', useClass: TokenTool }] })
    class NestedModule {}
    @Module({ providers: [Echo, NotATool, { provide: 'VALUE_TOOL', useValue: new ValueTool('hello') }] })
    class EchoModule {}
    @Module({ imports: [NestedModule, EchoModule] })
    class AppModule {}

    const { client, app, close } = await started(AppModule);
    try {
      // In Nest's module order: NestedModule, then the TimeModule it imports, then EchoModule.
      assert.deepEqual(
        app.get(ToolwrightServer).tools.map((tool) => tool.name),
        ['under_token', 'time', 'echo', 'as_value'],
      );
      assert.deepEqual(
        (await client.listTools()).tools.map((tool) => [tool.name, tool.description, tool.inputSchema]),
        [
          [
            'under_token',
            'Provided under a token of its own',
            { type: 'object', properties: {}, additionalProperties: false },
          ],
          ['time', 'Tell the time', { type: 'object', properties: {}, additionalProperties: false }],
          [
            'echo',
            'Echo the text',
            {
              type: 'object',
              properties: { text: { type: 'string' } },
              required: ['text'],
              additionalProperties: false,
            },
          ],
          ['as_value', 'Provided as a value', { type: 'object', properties: {}, additionalProperties: false }],
        ],
      );
      assert.deepEqual(await client.callTool({ name: 'under_token', arguments: {} }), text('found through useClass'));
      assert.deepEqual(
        await client.callTool({ name: 'as_value', arguments: {} }),
        text('found through useValue: hello'),
      );
      assert.deepEqual(await client.callTool({ name: 'time', arguments: {} }), text('it is 12:00'));
      assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }), text('hi (an EchoArgs)'));
      assert.deepEqual(
        await client.callTool({ name: 'echo', arguments: { text: 5 } }),
        text('invalid arguments: /text: must be string', true),
      );
    } finally {
      await close();
    }
  },
);

test(
  'a request-scoped tool gets a fresh instance per call, with the call as its REQUEST outside HTTP',
  TIMEOUT,
  async () => {
    let made = 0;
    const releases: (() => void)[] = [];
    @Injectable({ scope: Scope.REQUEST })
    class PerCall {
      readonly id = ++made;
      constructor(@Inject(REQUEST) readonly request: NestToolCall) {}
    }
    @Injectable()
    @Tool({ name: 'which', description: 'Which instance served the call' })
    class WhichTool {
      constructor(private readonly perCall: PerCall) {}
      async execute(): Promise<string> {
        await new Promise<void>((resolve) => releases.push(resolve));
        return `instance ${this.perCall.id} for ${this.perCall.request.tool} on ${this.perCall.request.session?.transport}`;
      }
    }
    @Module({ providers: [PerCall, WhichTool] })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      const first = client.callTool({ name: 'which', arguments: {} });
      const second = client.callTool({ name: 'which', arguments: {} });
      for (let tries = 0; releases.length < 2 && tries < 500; tries++)
        await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(releases.length, 2, 'both calls are running at once');
      for (const release of releases) release();
      const texts = (await Promise.all([first, second]))
        .map((result) => (result.content as { text: string }[])[0]!.text)
        .sort();
      assert.deepEqual(texts, ['instance 1 for which on memory', 'instance 2 for which on memory']);
      assert.equal(made, 2);
    } finally {
      await close();
    }
  },
);

test(
  'a transient tool, and a static tool depending on a request-scoped service, are made afresh for every call',
  TIMEOUT,
  async () => {
    let transients = 0;
    let services = 0;
    @Injectable()
    class Dependency {
      readonly name = 'dependency';
    }
    @Injectable({ scope: Scope.TRANSIENT })
    @Tool({ name: 'transient', description: 'A transient tool' })
    class TransientTool {
      private readonly id = ++transients;
      constructor(private readonly dependency: Dependency) {}
      execute(): string {
        return `transient ${this.id} with ${this.dependency.name}`;
      }
    }
    @Injectable({ scope: Scope.REQUEST })
    class PerCallService {
      readonly id = ++services;
    }
    @Injectable()
    @Tool({ name: 'bubbled', description: 'Static, but its dependency is request-scoped' })
    class BubbledTool {
      constructor(private readonly service: PerCallService) {}
      execute(): string {
        return `service ${this.service.id}`;
      }
    }
    @Module({ providers: [Dependency, TransientTool, PerCallService, BubbledTool] })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      const madeAtStart = transients;
      assert.deepEqual(
        await client.callTool({ name: 'transient', arguments: {} }),
        text(`transient ${madeAtStart + 1} with dependency`),
      );
      assert.deepEqual(
        await client.callTool({ name: 'transient', arguments: {} }),
        text(`transient ${madeAtStart + 2} with dependency`),
      );
      assert.deepEqual(await client.callTool({ name: 'bubbled', arguments: {} }), text('service 1'));
      assert.deepEqual(await client.callTool({ name: 'bubbled', arguments: {} }), text('service 2'));
    } finally {
      await close();
    }
  },
);

test('guards see the tool call and can refuse it: global, on the class and on execute', TIMEOUT, async () => {
  const seen: unknown[] = [];
  const ADMIN = 'admin-only';
  @Injectable()
  class AdminGuard implements CanActivate {
    constructor(private readonly reflector: Reflector) {}
    canActivate(context: ExecutionContext): boolean {
      const call = toolCallOf(context)!;
      seen.push({
        type: context.getType(),
        tool: call.tool,
        arguments: call.arguments,
        session: call.session,
        request: call.request,
        handler: context.getHandler().name,
        cls: context.getClass().name,
      });
      return this.reflector.get<boolean | undefined>(ADMIN, context.getHandler()) !== true;
    }
  }
  @Injectable()
  class TokenGuard implements CanActivate {
    canActivate(): boolean {
      throw new UnauthorizedException('the token has expired');
    }
  }
  @Injectable()
  @Tool({ name: 'open', description: 'Open to all' })
  class OpenTool {
    execute(): string {
      return 'open';
    }
  }
  @Injectable()
  @Tool({ name: 'wipe', description: 'Admins only' })
  class WipeTool {
    @SetMetadata(ADMIN, true)
    execute(): string {
      return 'wiped';
    }
  }
  @Injectable()
  @Tool({ name: 'vault', description: 'Needs a fresh token' })
  @UseGuards(TokenGuard)
  class VaultTool {
    execute(): string {
      return 'opened';
    }
  }
  @Module({ providers: [{ provide: APP_GUARD, useClass: AdminGuard }, TokenGuard, OpenTool, WipeTool, VaultTool] })
  class AppModule {}

  const { client, close } = await started(AppModule);
  try {
    assert.deepEqual(
      await client.callTool({ name: 'open', arguments: { x: 1 } }),
      text('invalid arguments: /: must NOT have additional property "x"', true),
    );
    assert.deepEqual(await client.callTool({ name: 'open', arguments: {} }), text('open'));
    assert.deepEqual(await client.callTool({ name: 'wipe', arguments: {} }), text('Forbidden resource', true));
    assert.deepEqual(await client.callTool({ name: 'vault', arguments: {} }), text('the token has expired', true));
    assert.deepEqual(seen, [
      {
        type: 'toolwright',
        tool: 'open',
        arguments: { x: 1 },
        session: { id: '', transport: 'memory' },
        request: undefined,
        handler: 'execute',
        cls: 'OpenTool',
      },
      {
        type: 'toolwright',
        tool: 'open',
        arguments: {},
        session: { id: '', transport: 'memory' },
        request: undefined,
        handler: 'execute',
        cls: 'OpenTool',
      },
      {
        type: 'toolwright',
        tool: 'wipe',
        arguments: {},
        session: { id: '', transport: 'memory' },
        request: undefined,
        handler: 'execute',
        cls: 'WipeTool',
      },
      {
        type: 'toolwright',
        tool: 'vault',
        arguments: {},
        session: { id: '', transport: 'memory' },
        request: undefined,
        handler: 'execute',
        cls: 'VaultTool',
      },
    ]);
  } finally {
    await close();
  }
});

test('interceptors wrap the call, and exception filters map what a tool throws', TIMEOUT, async () => {
  class QuotaError extends Error {}
  @Injectable()
  class Shout implements NestInterceptor {
    intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
      return next.handle().pipe(map((output) => `${String(output).toUpperCase()} (from ${toolCallOf(context)!.tool})`));
    }
  }
  @Catch(QuotaError)
  class QuotaFilter implements ExceptionFilter {
    catch(error: QuotaError, host: ArgumentsHost): object {
      return {
        content: [{ type: 'text', text: `${toolCallOf(host)!.tool}: ${error.message}, retry tomorrow` }],
        isError: true,
      };
    }
  }
  class FailArgs {
    @IsString()
    how!: string;
  }
  @Injectable()
  @Tool({ name: 'hello', description: 'Say hello' })
  @UseInterceptors(Shout)
  class HelloTool {
    execute(): string {
      return 'hello';
    }
  }
  @Injectable()
  @Tool({ name: 'fail', description: 'Fail as asked', args: FailArgs })
  @UseFilters(QuotaFilter)
  class FailTool {
    execute(args: FailArgs): string {
      if (args.how === 'http') throw new BadRequestException('the order is closed');
      if (args.how === 'list') throw new BadRequestException(['name is too long', 'date is in the past']);
      if (args.how === 'quota') throw new QuotaError('quota used up');
      throw new Error('the disk is full');
    }
  }
  @Module({ providers: [Shout, HelloTool, FailTool] })
  class AppModule {}

  const { client, close } = await started(AppModule);
  try {
    assert.deepEqual(await client.callTool({ name: 'hello', arguments: {} }), text('HELLO (from hello)'));
    assert.deepEqual(
      await client.callTool({ name: 'fail', arguments: { how: 'http' } }),
      text('the order is closed', true),
    );
    assert.deepEqual(
      await client.callTool({ name: 'fail', arguments: { how: 'list' } }),
      text('name is too long; date is in the past', true),
    );
    assert.deepEqual(
      await client.callTool({ name: 'fail', arguments: { how: 'quota' } }),
      text('fail: quota used up, retry tomorrow', true),
    );
    assert.deepEqual(
      await client.callTool({ name: 'fail', arguments: { how: 'plain' } }),
      text('the disk is full', true),
    );
  } finally {
    await close();
  }
});

test('the tool reaches its call (name, arguments, session) through its CallContext', TIMEOUT, async () => {
  @Injectable()
  @Tool({ name: 'introspect', description: 'Report the call', args: undefined })
  class IntrospectTool {
    execute(_args: unknown, ctx: CallContext): string {
      const call = toolCallOf(ctx)!;
      return JSON.stringify({
        tool: call.tool,
        arguments: call.arguments,
        session: call.session,
        request: call.request ?? null,
        same: call.context === ctx,
      });
    }
  }
  @Module({ providers: [IntrospectTool] })
  class AppModule {}
  const { client, close } = await started(AppModule);
  try {
    assert.deepEqual(
      await client.callTool({ name: 'introspect', arguments: {} }),
      text('{"tool":"introspect","arguments":{},"session":{"id":"","transport":"memory"},"request":null,"same":true}'),
    );
  } finally {
    await close();
  }
});

test('two providers with one tool name fail the start, naming both classes and modules', TIMEOUT, async () => {
  @Injectable()
  @Tool({ name: 'search', description: 'Search the docs' })
  class DocsSearch {
    execute(): string {
      return '';
    }
  }
  @Injectable()
  @Tool({ name: 'search', description: 'Search the code' })
  class CodeSearch {
    execute(): string {
      return '';
    }
  }
  @Module({ providers: [DocsSearch] })
  class DocsModule {}
  @Module({ providers: [CodeSearch] })
  class CodeModule {}
  @Module({ imports: [DocsModule, CodeModule] })
  class AppModule {}

  const error = await startFailure(AppModule);
  assert.ok(error instanceof ContractError);
  assert.equal(
    error.message,
    `toolwright: 1 problem in the tool contract:\n  - [duplicate-name] ToolwrightModule: tool name "search" is provided 2 times (class DocsSearch in module DocsModule and class CodeSearch in module CodeModule): give all but one another name with @Tool({ name: '...' })`,
  );
});

test(
  'a @Tool provider Nest made no instance of, or a class that is no valid tool, fails the start naming it',
  TIMEOUT,
  async () => {
    @Tool({ name: 'ghost', description: 'Never made' })
    class GhostTool {
      execute(): string {
        return '';
      }
    }
    @Module({ providers: [{ provide: GhostTool, useFactory: () => null }] })
    class GhostModule {}
    const ghost = await startFailure(GhostModule);
    assert.ok(ghost instanceof ContractError);
    assert.equal(
      ghost.message,
      'toolwright: 1 problem in the tool contract:\n  - [resolve-failed] ToolwrightModule: the @Tool provider GhostTool in module GhostModule has no instance (Nest made null): provide the class itself (providers: [GhostTool]) or a factory that returns an instance of it',
    );

    @Injectable()
    @Tool({ name: 'blank', description: ' ' })
    class BlankTool {
      execute(): string {
        return '';
      }
    }
    @Module({ providers: [BlankTool] })
    class BlankModule {}
    const blank = await startFailure(BlankModule);
    assert.ok(blank instanceof ContractError);
    assert.equal(
      blank.message,
      `toolwright: 1 problem in the tool contract:\n  - [missing-description] class BlankTool: @Tool() has a blank description: tell the model what the tool does in @Tool({ description: '...' })`,
    );
  },
);

test(
  'bad module options are refused, naming the option; http without an HTTP server fails the start',
  TIMEOUT,
  async () => {
    assert.throws(() => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'carrier-pigeon' as never }), {
      name: 'TypeError',
      message: `ToolwrightModule: "transport" must be 'stdio', 'http' or 'none', got "carrier-pigeon"`,
    });
    assert.throws(() => ToolwrightModule.forRoot({ name: '', version: '1', transport: 'http' }), {
      message: `ToolwrightModule: "name" must be a non-empty string (the server's name)`,
    });
    assert.throws(() => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'http', path: 'mcp' }), {
      message: 'ToolwrightModule: "path" must be a path beginning with "/", got "mcp"',
    });
    assert.throws(() => ToolwrightModule.forRootAsync({} as never), {
      message: 'ToolwrightModule.forRootAsync: give exactly one of useFactory, useClass or useExisting, got none',
    });

    @Module({})
    class EmptyModule {}
    const error = await startFailure(EmptyModule, { name: 'x', version: '1', transport: 'http' });
    assert.equal(
      error.message,
      "ToolwrightModule: transport 'http' needs an HTTP application (NestFactory.create); a standalone application context has no HTTP server: use transport 'stdio'",
    );
  },
);

test('forRootAsync builds the options from injected providers', TIMEOUT, async () => {
  const SETTINGS = Symbol('settings');
  @Module({ providers: [{ provide: SETTINGS, useValue: { serverName: 'from-config' } }], exports: [SETTINGS] })
  class ConfigModule {}
  @Injectable()
  @Tool({ name: 'ping', description: 'Ping' })
  class PingTool {
    execute(): string {
      return 'pong';
    }
  }
  @Module({
    imports: [
      ToolwrightModule.forRootAsync({
        imports: [ConfigModule],
        inject: [SETTINGS],
        useFactory: async (settings: { serverName: string }) => ({
          name: settings.serverName,
          version: '2.0.0',
          instructions: 'Say ping.',
          transport: 'none' as const,
        }),
      }),
    ],
    providers: [PingTool],
  })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false });
  const { client, close } = await connect(app.get(ToolwrightServer).createMcpServer('memory'));
  try {
    assert.deepEqual(client.getServerVersion(), { name: 'from-config', version: '2.0.0' });
    assert.equal(client.getInstructions(), 'Say ping.');
    assert.deepEqual(await client.callTool({ name: 'ping', arguments: {} }), text('pong'));
  } finally {
    await close();
    await app.close();
  }
});

test('the permission policy and output limits are providers, and shutdown closes the tools', TIMEOUT, async () => {
  const closed: string[] = [];
  @Injectable()
  @Tool({ name: 'peek', description: 'Peek at a file', args: undefined })
  class PeekTool {
    async execute(_args: object, ctx: CallContext): Promise<string> {
      const granted = await ctx.requirePermission({ subject: '/etc/hosts', capabilities: ['read'] });
      return `granted ${granted.join(', ')}: ${'x'.repeat(200)}`;
    }
    close(): void {
      closed.push('peek');
    }
  }
  @Module({
    providers: [
      PeekTool,
      {
        provide: TOOLWRIGHT_POLICY,
        useValue: createPolicy({ rules: [{ effect: 'allow', tool: 'peek', capabilities: ['read'] }] }),
      },
      { provide: TOOLWRIGHT_OUTPUT_LIMITS, useValue: { maxOutputChars: 40 } },
    ],
  })
  class AppModule {}
  const { client, close } = await started(AppModule);
  try {
    const result = await client.callTool({ name: 'peek', arguments: {} });
    assert.deepEqual(result.content, [
      { type: 'text', text: `granted read: ${'x'.repeat(26)}\n…[truncated: showing 40 of 214 characters]` },
    ]);
    assert.deepEqual(result._meta, {
      'io.github.christopherdavenport.agenttool/record': {
        ns: 'toolwright:permissions',
        data: JSON.stringify({
          decisions: [],
          grants: [{ subjects: ['/etc/hosts'], capabilities: ['read'], granted: ['read'] }],
        }),
      },
    });
    assert.deepEqual(closed, []);
  } finally {
    await close();
  }
  assert.deepEqual(closed, ['peek']);

  @Module({ providers: [PeekTool] })
  class NoPolicyModule {}
  const bare = await started(NoPolicyModule);
  try {
    assert.deepEqual(
      await bare.client.callTool({ name: 'peek', arguments: {} }),
      text('permission denied: no permission policy is configured to grant read on "/etc/hosts"', true),
    );
  } finally {
    await bare.close();
  }
});

test('shutdown refuses new calls, lets the call in flight finish, then closes the tools', TIMEOUT, async () => {
  const events: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  @Injectable()
  @Tool({ name: 'slow', description: 'Waits to be released' })
  class SlowTool {
    async execute(): Promise<string> {
      started();
      await released;
      events.push('slow finished');
      return 'done';
    }
    close(): void {
      events.push('tool closed');
    }
  }
  @Module({ providers: [SlowTool] })
  class AppModule {}
  @Module({ imports: [AppModule, ToolwrightModule.forRoot({ ...SERVING, shutdownTimeoutMs: 30_000 })] })
  class TestRoot {}
  const app = await NestFactory.createApplicationContext(TestRoot, { logger: false, abortOnError: false });
  const { client, close } = await connect(app.get(ToolwrightServer).createMcpServer('memory'));
  try {
    const inFlight = client.callTool({ name: 'slow', arguments: {} });
    await running;
    const closing = app.close().then(() => events.push('app closed'));
    await until(() => app.get(ToolwrightServer).shuttingDown, 4000);
    assert.deepEqual(
      await client.callTool({ name: 'slow', arguments: {} }),
      text('the server is shutting down; call again later', true),
    );
    assert.deepEqual(events, []);
    release();
    assert.deepEqual(await inFlight, text('done'));
    await closing;
    assert.deepEqual(events, ['slow finished', 'tool closed', 'app closed']);
  } finally {
    release();
    await close();
  }
});

test(
  'invalid arguments reach exception filters as a BadRequestException, as ValidationPipe reports them',
  TIMEOUT,
  async () => {
    @Catch(BadRequestException)
    class BadRequestFilter implements ExceptionFilter {
      catch(error: BadRequestException, host: ArgumentsHost): string {
        return `please fix: ${error.message} (${toolCallOf(host)!.tool})`;
      }
    }
    class NameArgs {
      @IsString()
      name!: string;
    }
    @Injectable()
    @Tool({ name: 'named', description: 'Needs a name', args: NameArgs })
    @UseFilters(BadRequestFilter)
    class NamedTool {
      execute(args: NameArgs): string {
        return args.name;
      }
    }
    @Module({ providers: [NamedTool] })
    class AppModule {}
    const { client, close } = await started(AppModule);
    try {
      assert.deepEqual(
        await client.callTool({ name: 'named', arguments: { name: 7 } }),
        text('please fix: invalid arguments: /name: must be string (named)'),
      );
    } finally {
      await close();
    }
  },
);

test('compile options are a provider: maxDepth bounds the arguments of every tool', TIMEOUT, async () => {
  class ListArgs {
    @IsOptional()
    @IsArray()
    @IsInt({ each: true })
    list?: number[];
  }
  @Injectable()
  @Tool({ name: 'shallow', description: 'Takes a list', args: ListArgs })
  class ShallowTool {
    execute(): string {
      return 'ok';
    }
  }
  @Module({ providers: [ShallowTool, { provide: TOOLWRIGHT_COMPILE_OPTIONS, useValue: { maxDepth: 1 } }] })
  class AppModule {}
  const { client, close } = await started(AppModule);
  try {
    assert.deepEqual(
      await client.callTool({ name: 'shallow', arguments: { list: [1] } }),
      text('invalid arguments: nested deeper than 1 levels', true),
    );
    assert.deepEqual(await client.callTool({ name: 'shallow', arguments: {} }), text('ok'));
  } finally {
    await close();
  }

  @Module({ providers: [ShallowTool, { provide: TOOLWRIGHT_COMPILE_OPTIONS, useValue: { maxDepth: 0 } }] })
  class BadModule {}
  const error = await startFailure(BadModule);
  assert.equal(
    error.message,
    'compile(): "maxDepth" must be a positive integer (the deepest nesting of arguments accepted), got 0',
  );
});
