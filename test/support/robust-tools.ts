import { type JsonObject, type CallContext, type ContractTool, type ToolOutput } from '../../src/index.js';

/** Receives probe events (`hang started`, `stubborn aborted`, ...). */
export type Probe = (event: string) => void;

const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

function tool(
  name: string,
  parameters: Record<string, unknown>,
  execute: (args: any, ctx: CallContext) => Promise<ToolOutput> | ToolOutput,
): ContractTool {
  return {
    name,
    description: `robustness fixture: ${name}`,
    parameters: parameters as JsonObject,
    execute: async (args, ctx) => execute(args, ctx),
  };
}

/** What a thrown value of each `throw` kind is. */
export const THROWN: Readonly<Record<string, () => unknown>> = {
  string: () => 'a plain string',
  number: () => 42,
  null: () => null,
  undefined: () => undefined,
  object: () => ({ code: 'E_WEIRD', detail: 'not an Error' }),
  symbol: () => Symbol('sym'),
  error: () => new Error('a real error'),
  'no-message': () => Object.create(null),
};

/**
 * The hand-built tools of the robustness suites, each doing one bad thing: `echo {text}`; `bigint`
 * (structured content holding a BigInt); `cycle` (structured content holding a cycle); `huge
 * {chars, char?}` (that many characters of text); `floating` (leaves a rejected promise nobody
 * handles, then answers `still here`); `hang` (never settles, reports `hang started`); `stubborn`
 * (reports `stubborn started`, ignores its signal for `ms`, reports `stubborn aborted` when the
 * signal fires, then answers `finished anyway`); `throw {kind}` (throws a non-Error, see `THROWN`);
 * `flood {count}` (sends that many progress notifications, then answers `flooded <count>`);
 * `memory` (collects garbage when the process runs with --expose-gc, then answers
 * `{"rss":...,"heapUsed":...}` in bytes); `counter` (per-session state: answers how often this
 * session called it); `write {path}` (needs `write` on the path, asked through the policy, then
 * answers `wrote <path>`).
 */
export function robustTools(probe: Probe = () => undefined): ContractTool[] {
  const counters = new WeakMap<object, number>();
  const plain: ContractTool[] = [
    tool('echo', object({ text: { type: 'string' } }, ['text']), (args) => String(args.text)),
    tool('bigint', object(), () => ({
      content: [{ type: 'text', text: 'has a bigint' }],
      structuredContent: { n: 10n } as never,
    })),
    tool('cycle', object(), () => {
      const node: Record<string, unknown> = { name: 'loop' };
      node.self = node;
      return { content: [{ type: 'text', text: 'has a cycle' }], structuredContent: node as never };
    }),
    tool(
      'huge',
      object({ chars: { type: 'integer', minimum: 0 }, char: { type: 'string', minLength: 1, maxLength: 1 } }, [
        'chars',
      ]),
      (args) => (args.char ?? 'x').repeat(args.chars),
    ),
    tool('floating', object(), () => {
      void Promise.reject(new Error('floating boom'));
      return 'still here';
    }),
    tool('hang', object(), () => {
      probe('hang started');
      return new Promise<never>(() => undefined);
    }),
    tool('stubborn', object({ ms: { type: 'integer', minimum: 0 } }, ['ms']), async (args, ctx) => {
      probe('stubborn started');
      ctx.signal.addEventListener('abort', () => probe('stubborn aborted'), { once: true });
      await new Promise((resolve) => setTimeout(resolve, args.ms));
      return 'finished anyway';
    }),
    tool('throw', object({ kind: { type: 'string', enum: Object.keys(THROWN) } }, ['kind']), (args) => {
      throw THROWN[args.kind as string]!();
    }),
    tool('flood', object({ count: { type: 'integer', minimum: 0, maximum: 100000 } }, ['count']), (args, ctx) => {
      for (let i = 1; i <= args.count; i++) ctx.progress({ progress: i, total: args.count });
      return `flooded ${args.count}`;
    }),
    tool('memory', object(), () => {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      return JSON.stringify({ rss, heapUsed });
    }),
    tool('counter', object(), (_args, ctx) => {
      const key = ctx.session ?? counters;
      const next = (counters.get(key) ?? 0) + 1;
      counters.set(key, next);
      return `${ctx.session?.id ?? ''}:${next}`;
    }),
  ];
  const write = tool('write', object({ path: { type: 'string' } }, ['path']), async (args, ctx) => {
    await ctx.requirePermission({ subject: args.path, capabilities: ['write'] });
    return `wrote ${args.path}`;
  });
  return [...plain, write];
}
