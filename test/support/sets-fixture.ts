import type { ContractTool } from '../../src/index.js';
import type { ServedSet } from '../../src/mcp/index.js';

/*
 * A module `toolwright serve` serves (over stdio and HTTP) in the served-set tests: its
 * `onServe` export takes the running server's set, and its tools change that set from a
 * client's call, as an application changes its own:
 *
 * - `slow` (v1) runs until `release` is called; `running` says how many `slow` calls run.
 * - `doomed` is served until the change.
 * - `apply_change` applies the change: `slow` replaced by v2 (which answers at once), `fresh`
 *   added, `doomed` removed, in one update (one notification); `undo_change` puts the first
 *   set back.
 */

let served: ServedSet | undefined;

/** What `toolwright serve` hands over once serving. */
export function onServe(set: ServedSet): void {
  served = set;
}

function set(): ServedSet {
  if (served === undefined) throw new Error('not served yet');
  return served;
}

let running = 0;
let release: (() => void) | undefined;
let released = new Promise<void>((resolve) => (release = resolve));

/** `slow` as served first: waits for `release`, then says it was v1. */
export const slowV1: ContractTool = {
  name: 'slow',
  description: 'Runs until released (v1)',
  async execute() {
    running += 1;
    try {
      await released;
      return 'slow v1 finished';
    } finally {
      running -= 1;
    }
  },
};

/** `slow` after the change: answers at once. */
export const slowV2: ContractTool = {
  name: 'slow',
  description: 'Answers at once (v2)',
  async execute() {
    return 'slow v2';
  },
};

const doomed: ContractTool = { name: 'doomed', description: 'Removed by the change', execute: async () => 'doomed' };
const fresh: ContractTool = { name: 'fresh', description: 'Added by the change', execute: async () => 'fresh' };

const applyChange: ContractTool = {
  name: 'apply_change',
  description: 'Replaces slow with v2, adds fresh, removes doomed',
  async execute() {
    set().update({ addTools: [slowV2, fresh], removeTools: ['doomed'] });
    return set()
      .tools.map((tool) => tool.name)
      .join(' ');
  },
};

const undoChange: ContractTool = {
  name: 'undo_change',
  description: 'Serves the first set again',
  async execute() {
    set().update({ tools: tools });
    release?.();
    released = new Promise<void>((resolve) => (release = resolve));
    return 'undone';
  },
};

const releaseTool: ContractTool = {
  name: 'release',
  description: 'Lets the running slow calls finish',
  async execute() {
    release?.();
    return 'released';
  },
};

const runningTool: ContractTool = {
  name: 'running',
  description: 'How many slow calls run now',
  async execute() {
    return String(running);
  },
};

/** The first set, in listing order. */
export const tools: readonly ContractTool[] = [slowV1, doomed, applyChange, undoChange, releaseTool, runningTool];
