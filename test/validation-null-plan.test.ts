import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropOptionalNulls, nullPlanOf, type NullPlan } from '../src/compiler/validation/nulls.js';
import type { JsonObject } from '../src/contract/index.js';

// Imports stop at the module tested and the contract's types (never the package root): each
// mutant runs this file in a fresh process, so it loads only what it tests.

/*
 * The null plan (`nullPlanOf`, `dropOptionalNulls`) as mutation testing (`npm run
 * mutate:validation`) found it unpinned: `null` admitted by `enum`, `const` and `oneOf`, boolean
 * subschemas, properties and items merged from branches, the pruned plan's exact shape, and the
 * copies made only on the way to a dropped `null`. See docs/mutation.md. Runs in well under a second.
 */

const NULLABLE: JsonObject = { type: ['string', 'null'] };

/** A plan as plain data: droppable names, the properties' plans and the items' plan (recursion cut at 4 levels). */
function shapeOf(plan: NullPlan | undefined, depth = 4): unknown {
  if (plan === undefined) return undefined;
  if (depth === 0) return '...';
  const properties: Record<string, unknown> = {};
  for (const [name, child] of plan.properties) properties[name] = shapeOf(child, depth - 1);
  return { droppable: [...plan.droppable], properties, items: shapeOf(plan.items, depth - 1) };
}

const objectWith = (properties: Record<string, unknown>, extra: JsonObject = {}): JsonObject =>
  ({ type: 'object', properties, ...extra }) as JsonObject;

test('an optional property admits null by type, enum, const, or an anyOf or oneOf branch; nothing else does', () => {
  const admitting: readonly unknown[] = [
    { type: 'null' },
    NULLABLE,
    { enum: ['x', null] },
    { const: null },
    { anyOf: [{ type: 'string' }, { type: 'null' }] },
    { oneOf: [{ type: 'string' }, { const: null }] },
    { anyOf: [true, { enum: [null] }] },
    { oneOf: [{ anyOf: [{ type: 'null' }] }] },
  ];
  for (const schema of admitting)
    assert.deepEqual(
      shapeOf(nullPlanOf(objectWith({ a: schema }))),
      { droppable: ['a'], properties: {}, items: undefined },
      JSON.stringify(schema),
    );
  const refusing: readonly unknown[] = [
    { type: 'string' },
    { type: ['string', 'number'] },
    { enum: ['x', 'null'] },
    { const: 'x' },
    { const: 0 },
    { anyOf: [{ type: 'string' }, { type: 'number' }] },
    { oneOf: [true, { type: 'string' }] },
    { allOf: [{ type: 'null' }] },
    true,
    {},
  ];
  for (const schema of refusing)
    assert.equal(nullPlanOf(objectWith({ a: schema, b: true })), undefined, JSON.stringify(schema));
});

test('without a required list every property is optional, whatever its name', () => {
  const plan = nullPlanOf(objectWith({ 'Stryker was here': NULLABLE, '': NULLABLE, a: NULLABLE }))!;
  assert.deepEqual([...plan.droppable], ['Stryker was here', '', 'a']);
  assert.deepEqual(dropOptionalNulls({ 'Stryker was here': null, '': null, a: null, b: null }, plan), { b: null });
  assert.deepEqual([...nullPlanOf(objectWith({ a: NULLABLE, b: NULLABLE }, { required: 'a' }))!.droppable], ['a', 'b']);
});

test('the plan keeps only the paths that lead to a droppable null', () => {
  const schema = objectWith({
    flat: { type: 'string' },
    inner: objectWith({ x: NULLABLE, deep: objectWith({ y: { type: 'string' } }) }),
    dull: objectWith({ z: { type: 'string' }, list: { type: 'array', items: objectWith({ w: { type: 'integer' } }) } }),
    list: { type: 'array', items: objectWith({ v: NULLABLE }) },
    plain: { type: 'array', items: objectWith({ u: { type: 'string' } }) },
  });
  assert.deepEqual(shapeOf(nullPlanOf(schema)), {
    droppable: [],
    properties: {
      inner: { droppable: ['x'], properties: {}, items: undefined },
      list: { droppable: [], properties: {}, items: { droppable: ['v'], properties: {}, items: undefined } },
    },
    items: undefined,
  });
});

test('branches add their properties and items; what the schema declares itself comes first', () => {
  const fromBranch = nullPlanOf({ type: 'object', allOf: [objectWith({ inner: objectWith({ x: NULLABLE }) })] });
  assert.deepEqual(shapeOf(fromBranch), {
    droppable: [],
    properties: { inner: { droppable: ['x'], properties: {}, items: undefined } },
    items: undefined,
  });
  const own = nullPlanOf(
    objectWith({ inner: objectWith({ x: NULLABLE }) }, { allOf: [objectWith({ inner: { type: 'object' } })] }),
  );
  assert.deepEqual(shapeOf(own), {
    droppable: [],
    properties: { inner: { droppable: ['x'], properties: {}, items: undefined } },
    items: undefined,
  });
  assert.deepEqual(dropOptionalNulls({ inner: { x: null, y: null } }, own!), { inner: { y: null } });

  const itemsFromBranch = nullPlanOf({ type: 'array', anyOf: [{ type: 'array', items: objectWith({ x: NULLABLE }) }] });
  assert.deepEqual(shapeOf(itemsFromBranch), {
    droppable: [],
    properties: {},
    items: { droppable: ['x'], properties: {}, items: undefined },
  });
  const ownItems = nullPlanOf({
    type: 'array',
    items: objectWith({ x: NULLABLE }),
    anyOf: [{ type: 'array' }, { type: 'array', items: objectWith({ y: NULLABLE }) }],
  });
  assert.deepEqual(shapeOf(ownItems), {
    droppable: [],
    properties: {},
    items: { droppable: ['x'], properties: {}, items: undefined },
  });
  const firstBranchItems = nullPlanOf({
    type: 'array',
    oneOf: [
      { type: 'array', items: objectWith({ x: NULLABLE }) },
      { type: 'array', items: objectWith({ y: NULLABLE }) },
    ],
  });
  assert.deepEqual(shapeOf(firstBranchItems), {
    droppable: [],
    properties: {},
    items: { droppable: ['x'], properties: {}, items: undefined },
  });
  assert.equal(nullPlanOf({ type: 'object', allOf: [true, false, objectWith({ a: { type: 'string' } })] }), undefined);
});

test('dropOptionalNulls copies only the objects and arrays on the way to a dropped null', () => {
  const plan = nullPlanOf(
    objectWith({
      a: NULLABLE,
      inner: objectWith({ x: NULLABLE }),
      list: { type: 'array', items: objectWith({ y: NULLABLE }) },
    }),
  )!;
  const untouched = { a: 'kept', inner: { x: 'kept' }, list: [{ y: 1 }, { y: 2 }], other: { k: 1 } };
  assert.equal(dropOptionalNulls(untouched, plan), untouched);
  const value = { a: 'kept', inner: { x: null, z: 1 }, list: [{ y: 1 }, { y: null }, null, 'text'], other: { k: 1 } };
  const dropped = dropOptionalNulls(value, plan) as typeof value;
  assert.deepEqual(dropped, { a: 'kept', inner: { z: 1 }, list: [{ y: 1 }, {}, null, 'text'], other: { k: 1 } });
  assert.equal(dropped.other, value.other);
  assert.equal(dropped.list[0], value.list[0]);
  assert.notEqual(dropped.list, value.list);
  assert.deepEqual(value, {
    a: 'kept',
    inner: { x: null, z: 1 },
    list: [{ y: 1 }, { y: null }, null, 'text'],
    other: { k: 1 },
  });
  const onlyList = { list: [{ y: 1 }] };
  assert.equal(dropOptionalNulls(onlyList, plan), onlyList);
  for (const primitive of [null, 5, 'x', true]) assert.equal(dropOptionalNulls(primitive, plan), primitive);
});

test('a property whose plan has no items may still hold an array: its items are left as they are', () => {
  const schema = objectWith({
    a: { anyOf: [objectWith({ x: NULLABLE }), { type: 'array', items: objectWith({ w: { type: 'integer' } }) }] },
  });
  const plan = nullPlanOf(schema)!;
  assert.deepEqual(shapeOf(plan), {
    droppable: [],
    properties: { a: { droppable: ['x'], properties: {}, items: undefined } },
    items: undefined,
  });
  const value = { a: [{ x: null }, null] };
  assert.equal(dropOptionalNulls(value, plan), value);
  assert.deepEqual(dropOptionalNulls({ a: { x: null } }, plan), { a: {} });
});
