/**
 * How `ParkedRuns` abandons parked calls with one timer for all of them (issue 28, memory): each
 * call is stopped once `abandonAfterMs` passed since it was parked, never before, whatever the
 * calls parked before or after it did; a call taken back in time is never stopped; the timer
 * goes once nothing is parked. Runs in well under a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ParkedRun } from '../src/mcp/server/input-rounds/parked-run.js';
import { ParkedRuns } from '../src/mcp/server/input-rounds/parked-runs.js';
import { until } from './support/server-harness.js';

const ABANDON_MS = 60;
const binding = { connection: undefined, principal: undefined };

/** A stand-in for a parked call: its tool, and when (and why) it was stopped. */
function fakeRun(tool: string): { run: ParkedRun; stopped: { at: number; reason: string } | undefined } {
  const fake = {
    stopped: undefined as { at: number; reason: string } | undefined,
    run: {
      tool,
      stop: (reason: Error) => {
        fake.stopped ??= { at: performance.now(), reason: reason.message };
      },
    } as unknown as ParkedRun,
  };
  return fake;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('parked calls are abandoned abandonAfterMs after each was parked, never earlier; one taken back never is', async () => {
  const runs = new ParkedRuns({ abandonAfterMs: ABANDON_MS });
  const first = fakeRun('first');
  const taken = fakeRun('taken');
  const later = fakeRun('later');
  const parkedAt = performance.now();
  runs.park(first.run, binding);
  const takenState = runs.park(taken.run, binding)!;
  await pause(25);
  const laterAt = performance.now();
  runs.park(later.run, binding);
  assert.equal(runs.take(takenState, binding, 'taken'), taken.run);
  await until(() => first.stopped !== undefined && later.stopped !== undefined, 400);
  assert.equal(
    first.stopped!.reason,
    `the call was stopped while it waited for input: no answer came within ${ABANDON_MS} ms`,
  );
  assert.ok(first.stopped!.at - parkedAt >= ABANDON_MS - 1, `first stopped after ${first.stopped!.at - parkedAt} ms`);
  assert.ok(later.stopped!.at - laterAt >= ABANDON_MS - 1, `later stopped after ${later.stopped!.at - laterAt} ms`);
  assert.equal(taken.stopped, undefined);
  assert.equal(runs.size, 0);
  await runs.closeAll();
});

test('a call parked after the others were taken back or forgotten gets its whole abandonAfterMs', async () => {
  const runs = new ParkedRuns({ abandonAfterMs: ABANDON_MS });
  const early = fakeRun('early');
  runs.park(early.run, binding);
  runs.forget(early.run);
  await pause(40);
  const late = fakeRun('late');
  const lateAt = performance.now();
  const state = runs.park(late.run, binding)!;
  await until(() => late.stopped !== undefined, 400);
  assert.ok(late.stopped!.at - lateAt >= ABANDON_MS - 1, `late stopped after ${late.stopped!.at - lateAt} ms`);
  assert.equal(early.stopped, undefined);
  assert.equal(runs.take(state, binding, 'late'), undefined, 'an abandoned call is forgotten');
  await runs.closeAll();
});
