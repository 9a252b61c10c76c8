import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  Args,
  compile,
  compilePrompts,
  compileResources,
  Prompt,
  ReadOnly,
  Replay,
  StaticResource,
  Tool,
  userMessage,
  type CallContext,
  type ContractPrompt,
  type ContractResources,
  type ContractTool,
  type PromptMessage,
} from '../../src/index.js';

/** Who answered a call: the process id and the node id of the toolwright process. */
export interface Answerer {
  readonly pid: number;
  readonly node: string;
}

/**
 * What the tools of one process share: who it is, how many `slow` and `order` calls it runs now,
 * how many orders it placed.
 */
export interface Process {
  readonly me: Answerer;
  running: number;
  orders: number;
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
 * `order`: places an order for `item`, taking `ms` milliseconds, and says its number and which
 * process placed it. Keyed replay: a client that sends an idempotency key (the request `_meta`
 * key `IDEMPOTENCY_KEY_META`) gets the first outcome for a retry with the same key on any
 * process, and the order is placed once (with the server's `replay` store; see `node.ts`).
 */
@Tool({
  description: 'Place an order (slowly); with an idempotency key it is placed once, whichever process a retry reaches',
})
@Replay('keyed')
export class Order {
  constructor(private readonly process: Process) {}
  async execute(@Args(OrderArgs) args: OrderArgs, ctx: CallContext): Promise<string> {
    await busyFor(this.process, args.ms, ctx.signal);
    this.process.orders += 1;
    return JSON.stringify({ order: this.process.orders, item: args.item, ...this.process.me });
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

/** The cluster sample's tools (`whoami`, `slow`, `confirm`, `order`), each told which process it runs in. */
export function clusterTools(me: Answerer): readonly ContractTool[] {
  const process: Process = { me, running: 0, orders: 0 };
  return compile([WhoAmI, Slow, Confirm, Order], {
    resolve: (cls) => new (cls as new (process: Process) => object)(process),
  });
}

/** `cluster://node`: which process read it, and how many orders it placed so far. */
@StaticResource({
  uri: 'cluster://node',
  description: 'The process that answers this read',
  mimeType: 'application/json',
})
export class NodeResource {
  constructor(private readonly process: Process) {}
  read(): string {
    return JSON.stringify({ ...this.process.me, orders: this.process.orders });
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
export function clusterFeatures(me: Answerer): { resources: ContractResources; prompts: readonly ContractPrompt[] } {
  const process: Process = { me, running: 0, orders: 0 };
  const resolve = (cls: Function): object => new (cls as new (process: Process) => object)(process);
  return { resources: compileResources([NodeResource], { resolve }), prompts: compilePrompts([Briefing], { resolve }) };
}
