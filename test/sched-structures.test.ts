import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArrivalHeap } from '../src/runtime/scheduler/arrival-heap.js';
import { Fifo } from '../src/runtime/scheduler/fifo.js';

/** The scheduler's two lists, checked against plain arrays over seeded random operations. */

const SEED = 0x5c4ed;

test('ArrivalHeap pops in arrival order whatever the order of pushes and pops', () => {
  const op = fc.oneof(fc.record({ push: fc.integer({ min: 0, max: 1000 }) }), fc.constant({ pop: true as const }));
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const heap = new ArrivalHeap<{ seq: number }>();
      const model: number[] = [];
      for (const step of ops) {
        if ('push' in step) {
          heap.push({ seq: step.push });
          model.push(step.push);
          model.sort((a, b) => a - b);
        } else {
          assert.equal(heap.pop()?.seq, model.shift());
        }
        assert.equal(heap.size, model.length);
        assert.equal(heap.peek()?.seq, model[0]);
      }
      heap.clear();
      assert.deepEqual([heap.size, heap.peek(), heap.pop()], [0, undefined, undefined]);
    }),
    { seed: SEED, numRuns: 300 },
  );
});

test('Fifo shifts in push order, removes from anywhere, and says where the removed item was', () => {
  const op = fc.oneof(
    fc.constant({ push: true as const }),
    fc.constant({ shift: true as const }),
    fc.record({ remove: fc.nat(50) }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
      const fifo = new Fifo<number>();
      const model: number[] = [];
      let next = 0;
      for (const step of ops) {
        if ('push' in step) {
          fifo.push(next);
          model.push(next);
          next += 1;
        } else if ('shift' in step) {
          assert.equal(fifo.shift(), model.shift());
        } else {
          const at = model.indexOf(step.remove);
          assert.equal(fifo.remove(step.remove), at);
          if (at >= 0) model.splice(at, 1);
        }
        assert.equal(fifo.length, model.length);
        assert.equal(fifo.first(), model[0]);
      }
    }),
    { seed: SEED, numRuns: 300 },
  );
});
