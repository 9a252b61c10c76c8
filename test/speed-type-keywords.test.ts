/**
 * The generator writes a property's `type` keyword with `typeKeyword`, and an optional property's
 * with `nullableTypeKeyword`, which since issue 28 builds its answer without making the set with
 * `null` added. Both must answer, for every normal type set (never `number` with `integer`), what
 * the definition says: the names in the fixed order, a lone name on its own; and the nullable one
 * must be exactly `typeKeyword` of the set with `null` added, a fresh list each time (schemas are
 * frozen in place, so two properties must never share one). Runs in a few milliseconds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  intersectTypes,
  nullableTypeKeyword,
  typeKeyword,
  typeSet,
  type JsonType,
} from '../src/compiler/schema/type-set.js';

const ORDER: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** Every normal type set: each subset of the seven names without both `number` and `integer`. */
function everyNormalSet(): JsonType[][] {
  const sets: JsonType[][] = [];
  for (let mask = 0; mask < 1 << ORDER.length; mask++) {
    const types = ORDER.filter((_, index) => (mask & (1 << index)) !== 0);
    if (types.includes('number') && types.includes('integer')) continue;
    sets.push(types);
  }
  return sets;
}

/** The definition: the names in order, a lone one on its own. */
function expectedKeyword(types: readonly JsonType[]): string | string[] {
  const listed = ORDER.filter((type) => types.includes(type));
  return listed.length === 1 ? listed[0]! : listed;
}

test('typeKeyword answers the names in the fixed order, a lone name on its own, for every normal set', () => {
  for (const types of everyNormalSet()) {
    if (types.length === 0) continue;
    assert.deepEqual(typeKeyword(typeSet(...types)), expectedKeyword(types), types.join(','));
  }
});

test('nullableTypeKeyword is typeKeyword of the set with null added, for every normal set', () => {
  for (const types of everyNormalSet()) {
    const set = typeSet(...types);
    assert.deepEqual(nullableTypeKeyword(set), expectedKeyword([...types, 'null']), types.join(',') || '(empty)');
    assert.deepEqual(nullableTypeKeyword(set), typeKeyword(typeSet(...types, 'null')), types.join(',') || '(empty)');
  }
});

test('the shared single-type sets and sets made by intersection answer alike', () => {
  for (const type of ORDER) {
    const shared = typeSet(type);
    const made = new Set([type]);
    assert.equal(typeKeyword(shared), type);
    assert.equal(typeKeyword(made), type);
    assert.deepEqual(nullableTypeKeyword(made), nullableTypeKeyword(shared));
  }
  assert.deepEqual(nullableTypeKeyword(intersectTypes(typeSet('number'), typeSet('integer'))), ['integer', 'null']);
});

test('nullableTypeKeyword answers a fresh list each time', () => {
  const first = nullableTypeKeyword(typeSet('string'));
  const second = nullableTypeKeyword(typeSet('string'));
  assert.deepEqual(first, ['string', 'null']);
  assert.notEqual(first, second);
});
