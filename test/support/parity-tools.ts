import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { compile, Requires, Tool, type CallContext, type ContractTool } from '../../src/index.js';
import {
  createPolicy,
  type CallCoreOptions,
  type Interceptor,
  type PermissionPolicy,
} from '../../src/runtime/index.js';

/*
 * The tool set of the host parity suite (test/core-parity.test.ts): the same tools and host
 * options on every host, fresh state per host. The stdio child serves it too
 * (parity-stdio-server.ts), so it must not depend on anything in the test process.
 */

class EchoArgs {
  @IsString()
  @MaxLength(10)
  text!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3)
  times?: number;
}

@Tool({ name: 'echo', description: 'Echoes text, up to three times', args: EchoArgs })
class Echo {
  execute(args: EchoArgs) {
    return Array(args.times ?? 1)
      .fill(args.text)
      .join(' ');
  }
}

class Stats {
  @IsInt()
  @Min(0)
  files!: number;
}

class StatsArgs {
  @IsIn(['ok', 'plain'])
  mode!: string;
}

@Tool({ name: 'stats', description: 'Counts files, or wrongly returns plain text', args: StatsArgs, result: Stats })
class StatsTool {
  execute(args: StatsArgs) {
    return args.mode === 'ok' ? Object.assign(new Stats(), { files: 3 }) : 'plain text';
  }
}

class WriteArgs {
  @IsString()
  path!: string;
}

@Tool({ name: 'write', description: 'Writes a file (after asking)', args: WriteArgs })
@Requires({ capabilities: ['write'], subject: (a: WriteArgs) => a.path })
class Write {
  execute(args: WriteArgs) {
    return `wrote ${args.path}`;
  }
}

const NUMBERS = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

/** The decorated tool classes of the parity set (what the Nest module discovers as providers). */
export const PARITY_CLASSES = [Echo, StatsTool, Write] as const;

/** The tools and host options every host of the parity suite serves, with fresh state. */
export function parityHost(): {
  tools: ContractTool[];
  handBuilt: ContractTool[];
  options: CallCoreOptions & { policy: PermissionPolicy; interceptors: Interceptor[]; maxOutputChars: number };
} {
  let cancels = 0;
  const handBuilt: ContractTool[] = [
    {
      name: 'count',
      description: 'Takes a number',
      parameters: {
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
        additionalProperties: false,
      },
      execute: async (args) => `n=${(args as { n: number }).n}`,
    },
    {
      name: 'add',
      description: 'Adds two numbers; 13 gives a sum that breaks the output schema',
      parameters: NUMBERS as never,
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      execute: async (args) => {
        const { a, b } = args as { a: number; b: number };
        const sum = a === 13 ? 'thirteen' : a + b;
        return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } as never };
      },
    },
    {
      name: 'fails',
      description: 'Throws an Error, or a value that is not one',
      parameters: { type: 'object', properties: { value: { type: 'boolean' } } },
      execute: async (args) => {
        if ((args as { value?: boolean }).value === true) throw 42;
        throw new Error('disk full');
      },
    },
    {
      name: 'slow',
      description: 'Answers only after its signal aborted (too late)',
      timeoutMs: 100,
      execute: (_args, ctx) =>
        new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late'), { once: true })),
    },
    {
      name: 'wait_for_cancel',
      description: 'Says it started, then waits until the caller cancels',
      execute: (_args, ctx: CallContext) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              cancels += 1;
              reject(new Error('cancelled by the caller'));
            },
            { once: true },
          );
          ctx.progress('started');
        }),
    },
    {
      name: 'cancels',
      description: 'How many calls were cancelled so far (waits a little for the first)',
      execute: async () => {
        for (let tries = 0; tries < 200 && cancels === 0; tries++)
          await new Promise((resolve) => setTimeout(resolve, 10));
        return String(cancels);
      },
    },
    { name: 'big', description: 'Returns 100 characters', execute: async () => 'x'.repeat(100) },
    {
      name: 'big_structured',
      description: 'Returns structured content larger than the bound',
      execute: async () => ({
        content: [{ type: 'text', text: 'see structured' }],
        structuredContent: { items: 'y'.repeat(60) },
      }),
    },
    {
      name: 'note',
      description: 'Leaves a record',
      execute: async () => ({
        content: [{ type: 'text', text: 'noted' }],
        record: { ns: 'parity:note', data: { kept: true } },
      }),
    },
  ];
  const guard: Interceptor = {
    name: 'guard',
    before: (call) =>
      (call.args as { text?: unknown }).text === 'forbidden'
        ? { action: 'refuse', reason: 'forbidden word' }
        : undefined,
  };
  const policy = createPolicy({
    rules: [{ effect: 'deny', path: '/etc/**', reason: 'system files' }],
    ask: (question) =>
      question.subject === '/ok' ? { decision: 'allow_once' } : { decision: 'deny_once', reason: 'not this one' },
  });
  return {
    tools: [...compile([...PARITY_CLASSES]), ...handBuilt],
    handBuilt,
    options: { policy, interceptors: [guard], maxOutputChars: 40 },
  };
}
