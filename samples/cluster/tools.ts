import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  Args,
  compile,
  compilePrompts,
  compileResources,
  Prompt,
  ReadOnly,
  Replay,
  Requires,
  Resource,
  StaticResource,
  Tool,
  userMessage,
  type CallContext,
  type ContractPrompt,
  type ContractResources,
  type ContractTool,
  type PromptMessage,
} from '../../src/index.js';
import { heldTurnOf } from '../../src/runtime/index.js';
import type { SampleState } from './state.js';

/** Who answered a call: the process id and the node id of the toolwright process. */
export interface Answerer {
  readonly pid: number;
  readonly node: string;
}

/**
 * What the tools of one process share: who it is, how many `slow`, `order` and `post_entry` calls
 * it runs now, and the state every process shares (in Redis when the node has one).
 */
export interface Process {
  readonly me: Answerer;
  running: number;
  readonly state: SampleState;
}

/** Waits `ms` milliseconds, or less when `signal` aborts, counting the wait in `process.running`. */
async function busyFor(process: Process, ms: number, signal: AbortSignal): Promise<void> {
  process.running += 1;
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  } finally {
    process.running -= 1;
  }
}

/**
 * `whoami`: says which process answered (`{"pid":...,"node":...,"running":...}`), so a client
 * can see where the balancer sent a call, and how many `slow` and `order` calls it runs now.
 */
@Tool({
  name: 'whoami',
  args: undefined,
  description: 'Say which toolwright process answered this call (its pid and node id) and how many slow calls it runs',
})
@ReadOnly()
export class WhoAmI {
  constructor(private readonly process: Process) {}
  execute(): string {
    return JSON.stringify({ ...this.process.me, running: this.process.running });
  }
}

class SlowArgs {
  @IsInt()
  @Min(0)
  @Max(600_000)
  ms!: number;
}

/**
 * `slow`: waits `ms` milliseconds (or until the call is cancelled), then says which process
 * answered. The cluster tests kill a process while it runs.
 */
@Tool({ description: 'Wait the given milliseconds, then say which process answered' })
@ReadOnly()
export class Slow {
  constructor(private readonly process: Process) {}
  async execute(@Args(SlowArgs) args: SlowArgs, ctx: CallContext): Promise<string> {
    await busyFor(this.process, args.ms, ctx.signal);
    return JSON.stringify(this.process.me);
  }
}

class OrderArgs {
  @IsString()
  @MaxLength(100)
  item!: string;

  @IsInt()
  @Min(0)
  @Max(600_000)
  ms!: number;
}

/**
 * `order`: places an order for `item`, taking `ms` milliseconds, and says its number (from the
 * shared state: a Redis counter, so numbers are unique across the processes) and which process
 * placed it. Keyed replay: a client that sends an idempotency key (the request `_meta` key
 * `IDEMPOTENCY_KEY_META`) gets the first outcome for a retry with the same key on any process,
 * and the order is placed once (with the server's `replay` store; see `node.ts`).
 */
@Tool({
  description: 'Place an order (slowly); with an idempotency key it is placed once, whichever process a retry reaches',
})
@Replay('keyed')
export class Order {
  constructor(private readonly process: Process) {}
  async execute(@Args(OrderArgs) args: OrderArgs, ctx: CallContext): Promise<string> {
    await busyFor(this.process, args.ms, ctx.signal);
    const order = await this.process.state.nextOrder();
    return JSON.stringify({ order, item: args.item, ...this.process.me });
  }
}

class EntryArgs {
  @IsString()
  @MaxLength(200)
  entry!: string;

  @IsInt()
  @Min(0)
  @Max(600_000)
  ms!: number;
}

/**
 * `post_entry`: writes `entry` to the shared ledger, taking `ms` milliseconds. `@Resource('ledger')`:
 * two calls never write at once, whichever processes run them (with the server's shared
 * scheduling store; see `node.ts`). It records its start and end in the shared state, checks
 * that it still holds its turn before it writes (`heldTurnOf(ctx).check()`), and writes with its
 * fencing token, which the ledger refuses when a later turn wrote already. Says which process
 * wrote, when it started and ended, and its token.
 */
@Tool({ description: 'Write an entry to the shared ledger (one writer at a time, across every process)' })
@Resource('ledger')
export class PostEntry {
  constructor(private readonly process: Process) {}
  async execute(@Args(EntryArgs) args: EntryArgs, ctx: CallContext): Promise<string> {
    const turn = heldTurnOf(ctx);
    const fence = turn?.fencingToken;
    const event = { entry: args.entry, node: this.process.me.node, ...(fence === undefined ? {} : { fence }) };
    const start = Date.now();
    await this.process.state.record({ ...event, phase: 'start', at: start });
    await busyFor(this.process, args.ms, ctx.signal);
    ctx.signal.throwIfAborted();
    await turn?.check?.();
    if (!(await this.process.state.append(args.entry, fence)))
      throw new Error(`the ledger refused entry ${JSON.stringify(args.entry)}: a later turn wrote already`);
    const end = Date.now();
    await this.process.state.record({ ...event, phase: 'end', at: end });
    return JSON.stringify({
      ...this.process.me,
      entry: args.entry,
      start,
      end,
      ...(fence === undefined ? {} : { fence }),
    });
  }
}

class PublishArgs {
  @IsString()
  @MaxLength(100)
  channel!: string;

  @IsString()
  @MaxLength(1000)
  message!: string;
}

/**
 * `publish`: publishes `message` on `channel`, once the user allowed it: `@Requires` asks the
 * client ("Allow the tool "publish" to use publish on "news"?"); an "always" answer is kept in the
 * shared decision store (Redis), so every process honours it, for the same owner only.
 */
@Tool({ description: 'Publish a message on a channel (asks first; "always" is remembered by every process)' })
@Requires({ capabilities: ['publish'], subject: (args: PublishArgs) => args.channel })
export class Publish {
  constructor(private readonly process: Process) {}
  execute(@Args(PublishArgs) args: PublishArgs): string {
    return `published on ${args.channel} by ${JSON.stringify(this.process.me)}: ${args.message}`;
  }
}

/**
 * `confirm`: asks the client "Proceed?" (an elicitation: a 2026-07-28-era call is parked until
 * the client retries with the answer), then says what the client answered and which process ran
 * the call from its start to its end.
 */
@Tool({ args: undefined, description: 'Ask the client to confirm, then say the answer and which process ran the call' })
@ReadOnly()
export class Confirm {
  constructor(private readonly process: Process) {}
  async execute(_args: unknown, ctx: CallContext): Promise<string> {
    const startedOn = JSON.stringify(this.process.me);
    const answer = await ctx.elicit({
      message: 'Proceed?',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return `${answer.action} ${JSON.stringify(answer.content ?? null)}; asked and finished by ${startedOn}`;
  }
}

/**
 * The cluster sample's tools (`whoami`, `slow`, `confirm`, `order`, `post_entry`, `publish`),
 * each told which process it runs in and given the shared state.
 */
export function clusterTools(me: Answerer, state: SampleState): readonly ContractTool[] {
  const process: Process = { me, running: 0, state };
  return compile([WhoAmI, Slow, Confirm, Order, PostEntry, Publish], {
    resolve: (cls) => new (cls as new (process: Process) => object)(process),
  });
}

/** `cluster://node`: which process read it, and how many orders were placed so far (by every process). */
@StaticResource({
  uri: 'cluster://node',
  description: 'The process that answers this read',
  mimeType: 'application/json',
})
export class NodeResource {
  constructor(private readonly process: Process) {}
  async read(): Promise<string> {
    return JSON.stringify({ ...this.process.me, orders: await this.process.state.orders() });
  }
}

/**
 * `briefing`: asks the client "Proceed?" before it renders (in the 2026-07-28 era the rendering
 * is parked until the client retries with the answer, relayed to this process through Redis when
 * the retry reaches another), then says which process rendered it from its start to its end.
 */
@Prompt({ name: 'briefing', description: 'Ask the client to confirm, then brief it, naming the process' })
export class Briefing {
  constructor(private readonly process: Process) {}
  async messages(_args: unknown, ctx: CallContext): Promise<PromptMessage[]> {
    const startedOn = JSON.stringify(this.process.me);
    const answer = await ctx.elicit({
      message: 'Proceed?',
      schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    return [userMessage(`${answer.action}; briefed by ${startedOn} from start to end`)];
  }
}

/** The cluster sample's resource (`cluster://node`) and prompt (`briefing`), each told which process it runs in. */
export function clusterFeatures(
  me: Answerer,
  state: SampleState,
): { resources: ContractResources; prompts: readonly ContractPrompt[] } {
  const process: Process = { me, running: 0, state };
  const resolve = (cls: Function): object => new (cls as new (process: Process) => object)(process);
  return { resources: compileResources([NodeResource], { resolve }), prompts: compilePrompts([Briefing], { resolve }) };
}
