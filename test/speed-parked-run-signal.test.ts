/**
 * A 2026-07-28 call's own abort (the `ParkedRun` that runs it detached from its request) makes
 * its `AbortSignal` only when someone reads it (issue 28, speed): most calls finish without
 * asking or reading `ctx.signal`, and Node gives every signal a hidden class of its own, which
 * makes each one costly for the collector. These tests pin that a run whose call never reads the
 * signal makes no abort controller, that one read after the run was stopped is already aborted
 * with the stop's reason, and that one read before a stop fires its listeners. In process, a few
 * milliseconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ParkedRun, type RunHost } from '../src/mcp/server/input-rounds/parked-run.js';
import type { HandlerExtra } from '../src/mcp/server/extra.js';

const HOST: RunHost = {
  maxRequests: 10,
  maxParkedPerClient: 10,
  park: () => 'state',
  forget: () => undefined,
};

/** The request context of the request that starts a run: its own signal made up front. */
function requestExtra(): HandlerExtra {
  return {
    requestId: 1,
    signal: new AbortController().signal,
    sessionId: undefined,
    _meta: undefined,
    authInfo: undefined,
    era: 'modern',
    requestLogLevel: undefined,
    clientCapabilities: () => undefined,
    sendNotification: () => Promise.resolve(),
    sendRequest: () => Promise.reject(new Error('no requests in this era')),
  };
}

/** Counts the abort controllers made while `run` runs (the global is put back after). */
async function countingControllers<T>(run: () => Promise<T>): Promise<{ made: number; value: T }> {
  const original = globalThis.AbortController;
  let made = 0;
  globalThis.AbortController = class extends original {
    constructor() {
      super();
      made += 1;
    }
  };
  try {
    const value = await run();
    return { made, value };
  } finally {
    globalThis.AbortController = original;
  }
}

test('a run whose call never reads its signal makes no abort controller, and answers with the call result', async () => {
  const first = requestExtra();
  const { made, value } = await countingControllers(() =>
    new ParkedRun('echo', HOST, { connection: undefined, principal: undefined }, first).start(first, async () => ({
      content: [{ type: 'text', text: 'hi' }],
    })),
  );
  assert.equal(made, 0);
  assert.deepEqual(value, { kind: 'result', result: { content: [{ type: 'text', text: 'hi' }] } });
});

test("a run's signal read after a stop is already aborted with the stop's reason; one read before fires its listener", async () => {
  const first = requestExtra();
  let letRead!: () => void;
  const stopped = new Promise<void>((resolve) => (letRead = resolve));
  const seen: string[] = [];
  const early = new ParkedRun('early', HOST, { connection: undefined, principal: undefined }, first);
  const late = new ParkedRun('late', HOST, { connection: undefined, principal: undefined }, first);
  const earlyOutcome = early.start(first, (extra) => {
    const signal = extra.signal;
    return new Promise((resolve) =>
      signal.addEventListener('abort', () => {
        seen.push(`early: ${(signal.reason as Error).message}`);
        resolve({ content: [] });
      }),
    );
  });
  const lateOutcome = late.start(first, async (extra) => {
    await stopped;
    seen.push(`late: aborted ${extra.signal.aborted}, ${(extra.signal.reason as Error).message}`);
    return { content: [] };
  });
  early.stop(new Error('stopped early'));
  late.stop(new Error('stopped late'));
  letRead();
  await Promise.all([earlyOutcome, lateOutcome]);
  assert.deepEqual(seen, ['early: stopped early', 'late: aborted true, stopped late']);
});
