import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IsDate, IsOptional, IsString } from 'class-validator';
import { Type } from 'class-transformer';
import { prepareTools, runToolCall, type CallEnd } from '../src/runtime/call/index.js';
import { handBuiltArgumentsProblem } from '../src/runtime/call/run.js';
import { CallTimeLimit } from '../src/runtime/call/time-limit.js';
import { compile } from '../src/compiler/index.js';
import { Requires, Tool } from '../src/decorators/index.js';
import { createCallContext, type CallContext, type ContractTool, type ToolOutput } from '../src/contract/index.js';
import { ctxOf } from './support/text.js';

/*
 * The mutants of the call core that survived the first full run of `npm run mutate:call` and
 * are not equivalent: each test names what it pins. The equivalent ones are listed with their
 * reason in docs/mutation.md.
 */

const call = { id: 'c1', tool: 't', args: {} };
const endText = (end: CallEnd): string =>
  end.ok ? (end.result.content[0] as { text: string }).text : `${end.error.name}: ${end.error.message}`;
const tool = (run: () => ToolOutput | Promise<ToolOutput>, extra: Partial<ContractTool> = {}): ContractTool =>
  ({ name: 't', description: 'A tool', execute: run, ...extra }) as ContractTool;
const outputOf = async (output: unknown): Promise<string> =>
  endText(await runToolCall(prepareTools([tool(() => output as ToolOutput)]).get('t')!, {}, ctxOf()));

test('audio parts need data and mimeType; resource parts need a resource object with a uri and text or blob', async () => {
  assert.equal(
    await outputOf([{ type: 'audio', mimeType: 'audio/wav' }]),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("audio") needs a string "data", got nothing',
  );
  assert.equal(
    await outputOf([{ type: 'audio', data: 'AAAA' }]),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("audio") needs a string "mimeType", got nothing',
  );
  assert.equal(
    await outputOf([{ type: 'resource', resource: 'file:///a' }]),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("resource") needs a "resource" object with a string "uri"',
  );
  assert.equal(
    await outputOf([{ type: 'resource', resource: { uri: 5, text: 'x' } }]),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("resource") needs a "resource" object with a string "uri"',
  );
  assert.equal(
    await outputOf([{ type: 'resource', resource: { uri: 'file:///a' } }]),
    'InvalidOutputError: tool "t" returned an invalid output: content part 0 ("resource") needs a string "text" or "blob" in its "resource"',
  );
  const ok = async (resource: object) =>
    (await runToolCall(prepareTools([tool(() => [{ type: 'resource', resource } as never])]).get('t')!, {}, ctxOf()))
      .ok;
  assert.deepEqual(
    [
      await ok({ uri: 'file:///a', text: 'x' }),
      await ok({ uri: 'file:///a', blob: 'AA==' }),
      await ok({ uri: 'file:///a', text: 'x', blob: 'AA==' }),
    ],
    [true, true, true],
  );
  const audio = await runToolCall(
    prepareTools([tool(() => [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }])]).get('t')!,
    {},
    ctxOf(),
  );
  assert.deepEqual(audio, { ok: true, result: { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] } });
});

test('a tool without a time limit may take its time: no limit is set', async () => {
  const slow = prepareTools([
    tool(() => new Promise<string>((resolve) => setTimeout(() => resolve('late but fine'), 30))),
  ]).get('t')!;
  assert.equal(slow.timeoutMs, undefined);
  assert.equal(endText(await runToolCall(slow, {}, ctxOf())), 'late but fine');
});

test('a thrown null or undefined ends the call as an error, never a rejection', async () => {
  for (const [thrown, text] of [
    [null, 'Error: tool "t" threw: null'],
    [undefined, 'Error: tool "t" threw: undefined'],
  ] as const) {
    const end = await runToolCall(
      prepareTools([
        tool(() => {
          throw thrown;
        }),
      ]).get('t')!,
      {},
      ctxOf(),
    );
    assert.equal(endText(end), text);
    assert.equal(Object.hasOwn(end, 'record'), false);
  }
});

test('a schema every validator knows is not reported to the log; without a log, an unknown dialect is a stderr line', () => {
  const lines: string[] = [];
  prepareTools(
    [tool(() => 'x', { parameters: { type: 'object' } as never, outputSchema: { type: 'object' } as never })],
    { log: (line) => lines.push(line) },
  );
  assert.deepEqual(lines, []);
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    prepareTools([tool(() => 'x', { parameters: { $schema: 'https://example.com/s', type: 'object' } as never })]);
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(written, [
    'toolwright: prepareTools: tool "t": schema declares the dialect "https://example.com/s", which no validator here knows; it is served unvalidated\n',
  ]);
});

test('CallTimeLimit.contextFor: inherited members are carried, the signal is enumerable, and every context made before expiry aborts', async () => {
  const limit = new CallTimeLimit('t', 1);
  const base = createCallContext({ call });
  const inheriting = Object.assign(Object.create({ inherited: 'from the prototype' }), base) as CallContext;
  const first = limit.contextFor(inheriting);
  const second = limit.contextFor(base);
  assert.equal((first as unknown as { inherited: string }).inherited, 'from the prototype');
  assert.ok(Object.keys(first).includes('signal'));
  const withGetter = Object.defineProperty({ ...base }, 'lazy', { enumerable: true, get: () => 'read' });
  assert.ok(Object.keys(limit.contextFor(withGetter as CallContext)).includes('lazy'));
  const signals = [first.signal, second.signal];
  void limit.run(() => new Promise<void>(() => undefined));
  const end = await limit.expired;
  assert.deepEqual(
    signals.map((s) => [s.aborted, s.reason]),
    [
      [true, end.error],
      [true, end.error],
    ],
  );
});

test('a compiled tool: its own pipeline checks the arguments and builds the DTO; the facts check leaves it alone', async () => {
  class EchoArgs {
    @IsString() path!: string;
  }
  @Tool({ name: 'echo', description: 'Echoes the path', args: EchoArgs })
  class Echo {
    execute(args: EchoArgs): string {
      return `${args instanceof EchoArgs ? 'dto' : 'plain'} ${args.path}`;
    }
  }
  const [compiled] = compile([Echo]);
  const ready = prepareTools([compiled!]).get('echo')!;
  assert.equal(endText(await runToolCall(ready, { path: '/a' }, ctxOf())), 'dto /a');
  assert.equal(
    endText(await runToolCall(ready, { path: 5 }, ctxOf())),
    'InvalidArgumentsError: invalid arguments: /path: must be string',
  );
  assert.equal(
    endText(await runToolCall(ready, undefined, ctxOf())),
    'InvalidArgumentsError: invalid arguments: /: must have required property "path"',
  );
  assert.equal(handBuiltArgumentsProblem(ready, 'text'), undefined);
  assert.equal(handBuiltArgumentsProblem(ready, { path: 5 }), undefined);
});

test('a compiled tool runs its class with the DTO the core built (never its raw-JSON execute), and its @Requires reads {} for no arguments', async () => {
  class WhenArgs {
    @IsDate() @Type(() => Date) at!: Date;
  }
  @Tool({ name: 'when', description: 'Says the year', args: WhenArgs })
  class When {
    execute(args: WhenArgs): string {
      return String(args.at.getUTCFullYear());
    }
  }
  class OptionalPath {
    @IsOptional() @IsString() path?: string;
  }
  @Tool({ name: 'reader', description: 'Reads a path', args: OptionalPath })
  @Requires({
    capabilities: ['read'],
    subject: (args: { path?: string }) => (typeof args === 'object' ? (args.path ?? '/default') : '/not-an-object'),
  })
  class Reader {
    execute(args: OptionalPath): string {
      return `read ${args.path ?? '/default'}`;
    }
  }
  const tools = prepareTools(compile([When, Reader]), { timeoutMs: 60_000 });
  assert.equal(endText(await runToolCall(tools.get('when')!, { at: '2026-11-30T09:00:00Z' }, ctxOf())), '2026');
  const untimed = prepareTools(compile([When]));
  assert.equal(endText(await runToolCall(untimed.get('when')!, { at: '2026-11-30T09:00:00Z' }, ctxOf())), '2026');
  const asked: unknown[] = [];
  const granting = createCallContext({
    call,
    requirePermission: async (request) => {
      asked.push(request);
      return ['read'];
    },
  });
  for (const raw of [undefined, ''])
    assert.equal(endText(await runToolCall(tools.get('reader')!, raw, granting)), 'read /default');
  assert.deepEqual(asked, [
    { subject: '/default', capabilities: ['read'] },
    { subject: '/default', capabilities: ['read'] },
  ]);
});
