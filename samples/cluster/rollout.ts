import { IsBoolean } from 'class-validator';
import { compile, Tool, type ContractTool, type ServedSet } from '../../src/index.js';
import type { RelayBus, RelayListener } from '../../src/mcp/index.js';
import type { Answerer } from './tools.js';

/*
 * How the cluster sample changes what every process serves. Each process changes only its own set
 * (and tells only its own clients), so a change meant for the whole deployment is a message every
 * process applies to itself: `rollout` publishes it on one Redis channel, every node listens on
 * that channel and adds (or removes) `report` on its own set, and each node's clients are told as
 * their era defines. Without Redis the one process applies it alone.
 */

/** The channel of the rollout messages, on the relay bus (`<keyPrefix>relay:<this>` in Redis). */
export const ROLLOUT_CHANNEL = 'cluster-sample-rollout';

/** What a rollout message says: serve `report` or stop serving it. */
type Rollout = { readonly reports: boolean };

/** `report`: served once a rollout says so; answers which process it ran on. */
function reportTool(me: Answerer): ContractTool {
  return {
    name: 'report',
    description: 'Say which process made this report (served after a rollout of reports)',
    annotations: { readOnly: true },
    execute: async () => `report from ${me.node}`,
  };
}

class RolloutArgs {
  @IsBoolean()
  reports!: boolean;
}

/** A node's rollouts: the `rollout` tool it serves, and how it follows the rollouts of every node. */
export interface NodeRollouts {
  /** `rollout`, to serve among the node's tools. */
  readonly tool: ContractTool;
  /** Starts applying the rollouts published on the bus (and this node's own) to `set`. */
  follow(set: ServedSet): Promise<void>;
  /** Stops listening on the bus. */
  close(): Promise<void>;
}

/**
 * The rollouts of the node `me`: `rollout({reports})` publishes on `bus` (every node listening
 * applies it, this one included) or, without a bus, applies it here only, and answers how many
 * processes took it. A node applies a rollout by adding `report` to its set (`reports: true`) or
 * removing it (`false`); one it already follows changes nothing.
 */
export function nodeRollouts(me: Answerer, bus: RelayBus | undefined): NodeRollouts {
  const report = reportTool(me);
  let served: ServedSet | undefined;
  let listener: RelayListener | undefined;
  const apply = ({ reports }: Rollout): void => {
    if (served === undefined) return;
    const serving = served.tools.some((tool) => tool.name === report.name);
    if (reports && !serving) served.addTools([report]);
    if (!reports && serving) served.removeTools([report.name]);
  };

  @Tool({
    name: 'rollout',
    args: RolloutArgs,
    description: 'Serve the report tool on every process (reports: true), or stop serving it (false)',
  })
  class RolloutTool {
    async execute(args: RolloutArgs): Promise<string> {
      const message: Rollout = { reports: args.reports };
      if (bus === undefined) {
        apply(message);
        return 'applied here (no Redis: this process only)';
      }
      const taken = await bus.send(ROLLOUT_CHANNEL, JSON.stringify(message));
      return taken ? 'published to every process' : 'no process listens';
    }
  }

  return {
    tool: compile([RolloutTool])[0]!,
    async follow(set) {
      served = set;
      listener = await bus?.listen(ROLLOUT_CHANNEL, (text) => apply(JSON.parse(text) as Rollout));
    },
    close: async () => {
      await listener?.close();
    },
  };
}
