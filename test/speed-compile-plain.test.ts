/**
 * `isPlainSchema` checks `required` and `type` lists for repeats without a `Set` when they are
 * short (16 items or fewer) and with one when longer: both must answer what the 2020-12
 * meta-schema's `uniqueItems` says, at every length. Runs in a few milliseconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlainSchema } from '../src/compiler/validation/plain-schema.js';

const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `p${index}`);

test('required lists of every length up to 20: unique ones are plain, a repeat anywhere is not', () => {
  for (let length = 0; length <= 20; length++) {
    assert.equal(isPlainSchema({ type: 'object', required: names(length) }), true, `${length} unique names`);
    for (let at = 1; at < length; at++) {
      const repeated = names(length);
      repeated[at] = repeated[at - 1]!;
      assert.equal(isPlainSchema({ type: 'object', required: repeated }), false, `${length} names, a repeat at ${at}`);
      const first = names(length);
      first[at] = first[0]!;
      assert.equal(
        isPlainSchema({ type: 'object', required: first }),
        false,
        `${length} names, the first again at ${at}`,
      );
    }
  }
});

test('type lists: the JSON types once each are plain, a repeat is not', () => {
  assert.equal(isPlainSchema({ type: ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] }), true);
  assert.equal(isPlainSchema({ type: ['string', 'null', 'string'] }), false);
  assert.equal(isPlainSchema({ type: ['null', 'null'] }), false);
  assert.equal(isPlainSchema({ type: [] }), false);
  assert.equal(isPlainSchema({ type: ['string', 5] }), false);
  // A hole (never in JSON) is skipped as \`every\` skips it; two holes are a repeat, as a Set sees them.
  // oxlint-disable-next-line no-sparse-arrays -- the holes are what this checks
  assert.equal(isPlainSchema({ type: ['string', , 'null'] }), true);
  // oxlint-disable-next-line no-sparse-arrays -- the holes are what this checks
  assert.equal(isPlainSchema({ type: ['string', , , 'null'] }), false);
});
