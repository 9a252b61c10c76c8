/**
 * What a permission policy and an interceptor cost per call: a batch of 1,000 no-op calls run
 * plainly (`Promise.all` over `execute`), through the call core alone (`prepareTools`) and
 * through the `Executor`, bare and with a `policy` (an allow rule) and `interceptors` (one
 * `before`). The checking
 * variants use a tool that asks `ctx.requirePermission` once per call, which the allow rule
 * grants. Rounds are interleaved (see `measure` in executor.bench.ts); each line prints its
 * time relative to its baseline.
 *
 *   node dist/bench/policy.bench.js        (or `npm run bench`, which runs every bench)
 */
import { createCallContext, type CallContext, type ContractTool } from '../src/contract/index.js';
import { Executor, type BatchCall } from '../src/runtime/executor/index.js';
import { prepareTools, runToolCall } from '../src/runtime/call/index.js';
import { createPolicy } from '../src/runtime/permissions/index.js';
import { measure, type BenchVariant } from './executor.bench.js';

const CALLS = 1_000;

const noop: ContractTool = {
  name: 'noop',
  description: 'does nothing',
  async execute() {
    return 'ok';
  },
};

export const checking: ContractTool = {
  name: 'checking',
  description: 'checks read on its subject, then does nothing',
  async execute(_args: unknown, ctx: CallContext) {
    await ctx.requirePermission({ subject: '/workspace/file', capabilities: ['read'] });
    return 'ok';
  },
};

const policy = createPolicy({
  implications: { write: ['read'] },
  rules: [{ effect: 'allow', tool: '*', subject: '/workspace/**', capabilities: ['write'] }],
});
const hooks = [{ name: 'count', before: () => undefined }];
const guarded = prepareTools([checking], { policy, interceptors: hooks }).get('checking')!;

const executor = new Executor();
const guardedExecutor = new Executor({ policy, interceptors: hooks });
const sharedCtx = createCallContext({ call: { id: 'bench', tool: 'noop', args: {} } });

function batchOf(tool: ContractTool): BatchCall[] {
  return Array.from({ length: CALLS }, (_, i) => ({ id: `c${i}`, tool, args: { i } }));
}

const plainBatch = batchOf(noop);
const checkingBatch = batchOf(checking);

const plainAll = (calls: readonly BatchCall[]) =>
  Promise.all(calls.map((call) => (call.tool as ContractTool).execute(call.args, sharedCtx)));
const coreAll = (calls: readonly BatchCall[]) =>
  Promise.all(calls.map((call) => runToolCall(guarded, call.args, sharedCtx)));

/** Each variant runs its own batch (the `calls` handed in are ignored), so all stay side by side. */
const VARIANTS: BenchVariant[] = [
  { label: 'plain Promise.all', run: () => plainAll(plainBatch) },
  { label: 'plain + policy + interceptor, checking', baseline: 'plain Promise.all', run: () => coreAll(checkingBatch) },
  { label: 'executor', baseline: 'plain Promise.all', run: () => executor.run(plainBatch) },
  { label: 'executor + policy + interceptor', baseline: 'executor', run: () => guardedExecutor.run(plainBatch) },
  {
    label: 'executor + policy + interceptor, checking',
    baseline: 'executor',
    run: () => guardedExecutor.run(checkingBatch),
  },
];

export async function run(): Promise<void> {
  console.log('policy: permissions (an allow rule) and one interceptor around no-op tools');
  await measure(VARIANTS, plainBatch);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
