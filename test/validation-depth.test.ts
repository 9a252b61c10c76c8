import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_DEPTH, depthProblem } from '../src/compiler/validation/depth.js';

// Imports stop at the module tested (never the package root): each mutant runs this file in a
// fresh process, so it loads only what it tests.

/*
 * The nesting check (`depthProblem`) as mutation testing (`npm run mutate:validation`) found it
 * unpinned: values that are not containers, `null`s inside containers, the careful walk's exact
 * limit and its handling of objects shared along several paths (which found a bug: an object
 * reached first at a shallow level was never walked again from a deeper one, so a value nested
 * too deeply through a shared object passed). See docs/mutation.md. Runs in about a second.
 */

const tooDeep = (levels: number) => ({ pointer: '', message: `nested deeper than ${levels} levels` });

/** A chain of `levels` nested arrays, the outermost being level 1. */
function chain(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

/** An object of `levels` levels where each level holds the next twice: 2^(levels-1) paths to the bottom. */
function doubled(levels: number): object {
  let value: object = {};
  for (let level = 1; level < levels; level++) value = { left: value, right: value };
  return value;
}

test('depthProblem: a value that is not a container has no depth problem', () => {
  for (const value of [undefined, null, 0, 'deep', true])
    assert.equal(depthProblem(value, 1), undefined, String(value));
  assert.equal(DEFAULT_MAX_DEPTH, 64);
});

test('depthProblem: nulls and primitives inside arrays and objects are not levels', () => {
  assert.equal(depthProblem({ a: null, b: [null, 1, 'ab', true], c: 'text' }, 2), undefined);
  assert.equal(depthProblem([null, [null]], 2), undefined);
  assert.deepEqual(depthProblem({ a: null, b: [null, [null]] }, 2), tooDeep(2));
  assert.deepEqual(depthProblem({ deep: [[[]]], text: 'ab', n: 5, list: ['cd', 6] }, 2), tooDeep(2));
  assert.equal(depthProblem({ list: [null, 5], object: { n: null, m: 6 } }, 3), undefined);
});

test('depthProblem: exactly maxDepth levels pass and one more fails, by default and when the fast walk is over its budget', () => {
  assert.equal(depthProblem(chain(64)), undefined);
  assert.deepEqual(depthProblem(chain(65)), tooDeep(64));
  const wide = Array.from({ length: 110_000 }, () => ({}));
  assert.equal(depthProblem({ wide, deep: chain(3) }, 4), undefined);
  assert.deepEqual(depthProblem({ wide, deep: chain(4) }, 4), tooDeep(4));
  assert.equal(depthProblem({ wide, deep: { a: { b: {} } } }, 4), undefined);
  assert.deepEqual(depthProblem({ wide, deep: { a: { b: { c: {} } } } }, 4), tooDeep(4));
  assert.equal(depthProblem({ wide, text: 'ab', n: 5, nothing: null, list: ['cd', null, 7] }, 4), undefined);
});

test('depthProblem: an object shared along several paths counts at its deepest, whichever path is walked first', () => {
  const shared = { leaf: {} };
  for (const value of [
    { a: shared, b: { c: shared } },
    { b: { c: shared }, a: shared },
    [shared, [shared]],
    [[shared], shared],
  ]) {
    assert.deepEqual(depthProblem(value, 3), tooDeep(3), JSON.stringify(value));
    assert.equal(depthProblem(value, 4), undefined, JSON.stringify(value));
  }
});

test('depthProblem: 2^39 paths through shared objects are answered without walking each path', () => {
  const value = doubled(40);
  assert.equal(depthProblem(value, 40), undefined);
  assert.deepEqual(depthProblem(value, 39), tooDeep(39));
  assert.deepEqual(depthProblem({ wide: Array.from({ length: 60 }, () => value) }, 40), tooDeep(40));
});

test('depthProblem: a cycle is refused wherever it is; an object met twice on different paths is not a cycle', () => {
  const loop: Record<string, unknown> = { a: 1 };
  loop.self = loop;
  assert.deepEqual(depthProblem(loop), { pointer: '', message: 'contains a cycle' });
  const list: unknown[] = [1];
  list.push({ back: list });
  assert.deepEqual(depthProblem({ list }), { pointer: '', message: 'contains a cycle' });
  const twice = { x: {} };
  assert.equal(depthProblem({ a: twice, b: twice, c: [twice, twice] }), undefined);
});
