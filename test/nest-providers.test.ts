import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { IsEmail } from 'class-validator';
import { Tool, type CallContext } from '../src/index.js';
import { createPolicy, type Interceptor } from '../src/runtime/index.js';
import { createValidator } from '../src/compiler/index.js';
import {
  TOOLWRIGHT_CALL_OPTIONS,
  TOOLWRIGHT_OUTPUT_LIMITS,
  TOOLWRIGHT_POLICY,
  TOOLWRIGHT_VALIDATOR,
  type ToolwrightCallOptions,
} from '../src/nest/index.js';
import { startedInMemory, startFailure as startFailureOf } from './support/nest-context.js';
import { textResult as text } from './support/text.js';

const started = (root: Function | DynamicModule) =>
  startedInMemory(root, { name: 'nest-providers', version: '1.0.0', transport: 'none' });
const startFailure = (root: Function) =>
  startFailureOf(root, { name: 'nest-providers', version: '1.0.0', transport: 'none' });

/**
 * The call core's options as Nest providers: `TOOLWRIGHT_CALL_OPTIONS` (time limit, interceptors,
 * output bound, policy; made by a factory from other providers), `TOOLWRIGHT_VALIDATOR`, and the
 * single-purpose `TOOLWRIGHT_POLICY` and `TOOLWRIGHT_OUTPUT_LIMITS`; each is shown to reach the
 * calls, and a member given twice fails the start naming both tokens. About 3 s.
 */

const TIMEOUT = { timeout: 30_000 };

@Injectable()
@Tool({ name: 'stall', description: 'Never finishes by itself', args: undefined })
class StallTool {
  execute(_args: object, ctx: CallContext): Promise<string> {
    return new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)),
    );
  }
}

@Injectable()
@Tool({ name: 'long', description: 'Says a lot', args: undefined })
class LongTool {
  async execute(_args: object, ctx: CallContext): Promise<string> {
    const granted = await ctx.requirePermission({ subject: '/srv/report', capabilities: ['read'] });
    return `read ${granted.join(',')}: ${'y'.repeat(100)}`;
  }
}

/** Settings the call options are made from, as an application's config module would provide them. */
const SETTINGS = Symbol('settings');

test(
  'TOOLWRIGHT_CALL_OPTIONS, made by a factory from other providers, gives every call its time limit, interceptors, output bound and policy',
  TIMEOUT,
  async () => {
    const seen: string[] = [];
    const stamp: Interceptor = {
      name: 'stamp',
      before: (call) => void seen.push(`before ${call.tool.name}`),
      after: (result, call) => ({
        ...result,
        content: [{ type: 'text', text: `stamped ${call.tool.name}` }, ...result.content],
      }),
    };
    @Module({
      providers: [
        StallTool,
        LongTool,
        { provide: SETTINGS, useValue: { timeoutMs: 150, maxOutputChars: 30 } },
        {
          provide: TOOLWRIGHT_CALL_OPTIONS,
          inject: [SETTINGS],
          useFactory: (settings: { timeoutMs: number; maxOutputChars: number }): ToolwrightCallOptions => ({
            timeoutMs: settings.timeoutMs,
            maxOutputChars: settings.maxOutputChars,
            interceptors: [stamp],
            policy: createPolicy({ rules: [{ effect: 'allow', tool: 'long', capabilities: ['read'] }] }),
          }),
        },
      ],
    })
    class AppModule {}

    const { client, close } = await started(AppModule);
    try {
      assert.deepEqual(
        await client.callTool({ name: 'stall', arguments: {} }),
        text('tool "stall" timed out after 150 ms', true),
      );
      const long = await client.callTool({ name: 'long', arguments: {} });
      // The interceptor's part counts against the bound, which the core applies after every `after`.
      assert.deepEqual(long.content, [
        { type: 'text', text: 'stamped long' },
        { type: 'text', text: `read read: ${'y'.repeat(7)}\n…[truncated: showing 30 of 123 characters]` },
      ]);
      assert.deepEqual(seen, ['before stall', 'before long']);
    } finally {
      await close();
    }
  },
);

test("TOOLWRIGHT_VALIDATOR compiles every tool's schemas: its own formats decide the calls", TIMEOUT, async () => {
  class MailArgs {
    @IsEmail()
    to!: string;
  }
  @Injectable()
  @Tool({ name: 'mail', description: 'Send a mail', args: MailArgs })
  class MailTool {
    execute(args: MailArgs): string {
      return `sent to ${args.to}`;
    }
  }
  // Only addresses of example.com are emails to this application's validator.
  const validator = new Ajv2020({ allErrors: true, strict: false });
  validator.addFormat('email', /@example\.com$/);
  @Module({ providers: [MailTool, { provide: TOOLWRIGHT_VALIDATOR, useValue: validator }] })
  class AppModule {}
  const { client, close } = await started(AppModule);
  try {
    assert.deepEqual(
      await client.callTool({ name: 'mail', arguments: { to: 'ada@example.com' } }),
      text('sent to ada@example.com'),
    );
    assert.deepEqual(
      await client.callTool({ name: 'mail', arguments: { to: 'ada@example.org' } }),
      text('invalid arguments: /to: must match format "email"', true),
    );
  } finally {
    await close();
  }

  @Module({ providers: [MailTool] })
  class DefaultModule {}
  const plain = await started(DefaultModule);
  try {
    assert.deepEqual(
      await plain.client.callTool({ name: 'mail', arguments: { to: 'ada@example.org' } }),
      text('sent to ada@example.org'),
      'the default validator takes any address',
    );
  } finally {
    await plain.close();
  }
});

test('TOOLWRIGHT_POLICY and TOOLWRIGHT_OUTPUT_LIMITS reach the calls on their own', TIMEOUT, async () => {
  @Module({
    providers: [
      LongTool,
      {
        provide: TOOLWRIGHT_POLICY,
        useValue: createPolicy({ rules: [{ effect: 'allow', tool: 'long', capabilities: ['read'] }] }),
      },
      { provide: TOOLWRIGHT_OUTPUT_LIMITS, useValue: { maxOutputChars: 20 } },
    ],
  })
  class AppModule {}
  const { client, close } = await started(AppModule);
  try {
    const long = await client.callTool({ name: 'long', arguments: {} });
    assert.deepEqual(long.content, [
      { type: 'text', text: `read read: ${'y'.repeat(9)}\n…[truncated: showing 20 of 111 characters]` },
    ]);
  } finally {
    await close();
  }
});

test('an option provided twice, or a bad one, fails the start naming it', TIMEOUT, async () => {
  const policy = createPolicy({ rules: [] });
  @Module({
    providers: [
      LongTool,
      { provide: TOOLWRIGHT_POLICY, useValue: policy },
      { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: { policy } },
    ],
  })
  class TwicePolicy {}
  assert.equal(
    (await startFailure(TwicePolicy)).message,
    'ToolwrightModule: "policy" is provided by TOOLWRIGHT_CALL_OPTIONS and by TOOLWRIGHT_POLICY; provide it once',
  );

  @Module({
    providers: [
      LongTool,
      { provide: TOOLWRIGHT_VALIDATOR, useValue: createValidator() },
      { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: { validator: createValidator() } },
    ],
  })
  class TwiceValidator {}
  assert.equal(
    (await startFailure(TwiceValidator)).message,
    'ToolwrightModule: "validator" is provided by TOOLWRIGHT_VALIDATOR and by TOOLWRIGHT_CALL_OPTIONS; provide it once',
  );

  @Module({ providers: [LongTool, { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: { timeoutMs: -1 } }] })
  class BadTimeout {}
  assert.equal(
    (await startFailure(BadTimeout)).message,
    'ToolwrightModule: "timeoutMs" expected a positive number of milliseconds up to 2147483647, got -1',
  );

  @Module({ providers: [LongTool, { provide: TOOLWRIGHT_CALL_OPTIONS, useValue: 'fast' }] })
  class NotAnObject {}
  assert.equal(
    (await startFailure(NotAnObject)).message,
    'ToolwrightModule: the TOOLWRIGHT_CALL_OPTIONS provider must be an object, got a string',
  );
});
