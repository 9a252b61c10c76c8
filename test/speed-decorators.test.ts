/**
 * The decorators record less per class (issue 28): a hint decorator is one shared decorator that
 * records one shared frozen patch, merges of the same claims are made once, and frozen options
 * are recorded without a copy. What a class records, and that nothing read ever changes, stays
 * as before: these tests pin it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Barrier,
  Description,
  Field,
  Flow,
  Idempotent,
  ReadOnly,
  Replay,
  Resource,
  Scopes,
  Sequential,
  Timeout,
  Tool,
} from '../src/index.js';
import { fieldOptionsOf, getClaims, getFieldOptions, getToolOptions } from '../src/decorators/metadata.js';
import { cleanText, isCleanLine } from '../src/util/clean-text.js';

const CLAIMS = Symbol.for('toolwright/claims');
const TOOL = Symbol.for('toolwright/tool');

test('hint claims are recorded frozen, non-enumerable, under the shared key, and merge hint by hint', () => {
  @Tool({ description: 'd' })
  @ReadOnly()
  @Idempotent()
  class A {
    execute(): string {
      return '';
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(A, CLAIMS)!;
  assert.equal(descriptor.enumerable, false);
  assert.equal(descriptor.configurable, true);
  assert.equal(descriptor.writable, false);
  assert.deepEqual(getClaims(A), { annotations: { idempotent: true, readOnly: true } });
  assert.ok(Object.isFrozen(getClaims(A)));
  assert.ok(Object.isFrozen(getClaims(A).annotations));
  assert.equal(Object.getOwnPropertyDescriptor(A, TOOL)!.enumerable, false);
  assert.ok(Object.isFrozen(getToolOptions(A)));
});

test('claims read once never change, on this class or on another with the same decorators', () => {
  @Idempotent()
  class A {}
  @Idempotent()
  class B {}
  const readA = getClaims(A);
  const readB = getClaims(B);
  ReadOnly()(A);
  Sequential()(A);
  Timeout(1000)(A);
  assert.deepEqual(readA, { annotations: { idempotent: true } });
  assert.deepEqual(readB, { annotations: { idempotent: true } });
  assert.deepEqual(getClaims(B), { annotations: { idempotent: true } });
  assert.deepEqual(getClaims(A), {
    annotations: { idempotent: true, readOnly: true },
    sequential: true,
    timeoutMs: 1000,
  });
  // The same combination on a third class gives the same claims (possibly the same frozen object).
  @ReadOnly()
  @Idempotent()
  class C {}
  assert.deepEqual(getClaims(C), { annotations: { idempotent: true, readOnly: true } });
  ReadOnly()(B);
  assert.deepEqual(getClaims(B), getClaims(C));
  assert.deepEqual(readB, { annotations: { idempotent: true } });
});

test('checked claims and claims another copy recorded merge as before', () => {
  class A {}
  // Another copy of toolwright records its claims with its own frozen object under the shared key.
  Object.defineProperty(A, CLAIMS, {
    value: Object.freeze({ annotations: Object.freeze({ destructive: true }), replay: 'safe' }),
    configurable: true,
  });
  Barrier()(A);
  Resource('shell:session')(A);
  Flow({ sends: true })(A);
  Replay('keyed')(A);
  Scopes('issues:write')(A);
  assert.deepEqual(getClaims(A), {
    annotations: { destructive: true },
    replay: 'keyed',
    barrier: true,
    resource: 'shell:session',
    flow: { sends: true },
    scopes: ['issues:write'],
  });
  assert.ok(Object.isFrozen(getClaims(A)));
});

test('a hint on something that is not a class still names where it landed', () => {
  const decorate = ReadOnly() as unknown as (...args: unknown[]) => void;
  assert.throws(() => decorate({}, 'm'), {
    message: '@ReadOnly() decorates a class, but it was applied to member Object.m',
  });
});

test('field options: the first frozen options are kept, later ones merge into a new frozen object', () => {
  class Args {
    @Field({ title: 'T' }) @Description('  The text  ') text!: string;
    @Description('Only a description') other!: string;
  }
  const own = fieldOptionsOf(Args);
  assert.deepEqual(own.get('text'), { description: 'The text', title: 'T' });
  assert.deepEqual(own.get('other'), { description: 'Only a description' });
  assert.ok(Object.isFrozen(own.get('text')) && Object.isFrozen(own.get('other')));
  const copies = getFieldOptions(Args);
  assert.notEqual(copies.get('other'), own.get('other'));
});

test('one @Tool() decorator applied to two classes records the same options on each', () => {
  const decorate = Tool({ description: '  Echoes.  ', name: 'echo' });
  class A {}
  class B {}
  decorate(A);
  decorate(B);
  assert.deepEqual(getToolOptions(A), { description: 'Echoes.', name: 'echo' });
  assert.deepEqual(getToolOptions(B), getToolOptions(A));
  assert.ok(Object.isFrozen(getToolOptions(B)));
});

test('isCleanLine holds only for texts cleanText answers unchanged', () => {
  const texts = [
    'Echoes.',
    'a',
    ' a',
    'a ',
    '\ta',
    'a\n',
    'a\nb',
    'a\rb',
    '\u00a0a',
    'a\u00a0',
    '\ufeffa',
    'a\u2028b',
    'a  b',
    '',
    '~',
    'é',
    'x\u3000',
  ];
  for (const text of texts) if (isCleanLine(text)) assert.equal(cleanText(text), text, JSON.stringify(text));
  assert.equal(isCleanLine('The text to echo back'), true);
  assert.equal(isCleanLine(' padded'), false);
  assert.equal(isCleanLine('two\nlines'), false);
  assert.equal(isCleanLine(42), false);
});

test('@Description() keeps its checks and its cleaning on every path', () => {
  class Args {
    @Description('Plain') plain!: string;
    @Description('  padded  ') padded!: string;
    @Description(`
      Two
        lines
    `)
    lines!: string;
  }
  assert.deepEqual(
    [...fieldOptionsOf(Args)].map(([key, value]) => [key, value.description]),
    [
      ['plain', 'Plain'],
      ['padded', 'padded'],
      ['lines', 'Two\n  lines'],
    ],
  );
  const blank = Description('   ') as unknown as (...args: unknown[]) => void;
  assert.throws(() => blank({ constructor: Args }, 'x'), {
    message: '@Description() on member Args.x: the text must be a non-empty string, got "   "',
  });
});
