/**
 * The decorators record field options in one map per class that grows in place, and claims as a
 * new frozen object per decorator: what `getFieldOptions` and `getClaims` answer must not depend
 * on that (fresh copies, merged along the class chain, earlier answers never changed). Runs in a
 * few milliseconds.
 */
import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Description, Field, Idempotent, ReadOnly, Resource, Tool } from '../src/index.js';
import { getClaims, getFieldOptions } from '../src/compiler/index.js';
import { fieldOptionsOf } from '../src/decorators/metadata.js';

test('field options: merged per property along the class chain, base keys first, fresh copies on every read', () => {
  class Base {
    @Description('first') @Field({ title: 'A', examples: ['x'] }) a!: string;
    @Field({ deprecated: true }) b!: string;
  }
  class Sub extends Base {
    @Description('second') c!: string;
    @Field({ title: 'A2' }) declare a: string;
  }
  const expected = new Map<string, object>([
    ['a', { description: 'first', title: 'A2', examples: ['x'] }],
    ['b', { deprecated: true }],
    ['c', { description: 'second' }],
  ]);
  const read = getFieldOptions(Sub);
  assert.deepEqual(read, expected);
  assert.deepEqual([...read.keys()], ['a', 'b', 'c']);
  assert.equal(Object.isFrozen(read.get('b')), false);
  (read.get('b') as { deprecated?: boolean }).deprecated = false;
  (read as Map<string, object>).delete('c');
  assert.deepEqual(getFieldOptions(Sub), expected);
  assert.notEqual(getFieldOptions(Base), getFieldOptions(Base));
  assert.deepEqual(
    getFieldOptions(Base),
    new Map([
      ['a', { description: 'first', title: 'A', examples: ['x'] }],
      ['b', { deprecated: true }],
    ]),
  );
  // The compiler's own reader answers the recorded (frozen) entries of a single class.
  assert.ok([...fieldOptionsOf(Base).values()].every((options) => Object.isFrozen(options)));
  assert.deepEqual(fieldOptionsOf(Sub), expected);
  assert.equal(getFieldOptions(class Bare {}).size, 0);
});

test('claims: each decorator records a new frozen object, so an earlier answer never changes', () => {
  class Echo {
    execute(): string {
      return '';
    }
  }
  ReadOnly()(Echo);
  const first = getClaims(Echo);
  Idempotent()(Echo);
  const second = getClaims(Echo);
  Resource('shell:one')(Echo);
  Tool({ description: 'echo', scopes: ['a'] })(Echo);
  assert.deepEqual(first, { annotations: { readOnly: true } });
  assert.deepEqual(second, { annotations: { readOnly: true, idempotent: true } });
  assert.deepEqual(getClaims(Echo), {
    annotations: { readOnly: true, idempotent: true },
    resource: 'shell:one',
    scopes: ['a'],
  });
  for (const claims of [first, second, getClaims(Echo)]) {
    assert.ok(Object.isFrozen(claims));
    assert.ok(Object.isFrozen(claims.annotations));
  }
  assert.equal(getClaims(Echo).annotations, second.annotations);
});
