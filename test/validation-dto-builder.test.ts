import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Exclude, Expose, plainToInstance, Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MapOf, UnionOf } from '../src/decorators/index.js';
import { instantiatorOf } from '../src/compiler/validation/instantiate.js';
import { sameAsClassTransformer } from './support/validation-helpers.js';

// Imports stop at the module tested and the decorators it reads (never the package root): each
// mutant runs this file in a fresh process, so it loads only what it tests.

/*
 * The DTO builder (`instantiatorOf`) as mutation testing (`npm run mutate:validation`) found it
 * unpinned: which classes and properties go to class-transformer (`@Exclude`, `@Expose`, a
 * class-wide strategy, a `Set` or `Map` of classes), class-transformer called without implicit
 * conversion, an error from the DTO's own constructor, `null` and primitives where a class is
 * declared, `__proto__` and `constructor` keys, setters, and the `@MapOf`/`@UnionOf` shapes.
 * Each result is compared with class-transformer's own where class-transformer can build it.
 * See docs/mutation.md. Runs in about a second.
 */

test('@Exclude on a property, @Exclude on the class and @Expose without a name go to class-transformer', () => {
  class Hidden {
    @IsString() name!: string;
    @Exclude() @IsOptional() @IsString() secret?: string;
  }
  assert.equal(sameAsClassTransformer(Hidden, { name: 'a', secret: 's' }).secret, undefined);

  @Exclude()
  class Listed {
    @Expose() @IsString() shown!: string;
    @IsOptional() @IsString() other?: string;
  }
  const listed = sameAsClassTransformer(Listed, { shown: 'a', other: 'b' });
  assert.deepEqual([listed.shown, listed.other], ['a', undefined]);

  class Exposed {
    @Expose() @IsString() name!: string;
    @Expose({ toClassOnly: true }) @Type(() => Number) @IsInt() count!: number;
  }
  const exposed = sameAsClassTransformer(Exposed, { name: 'a', count: '7' });
  assert.equal(exposed.count, 7);

  @Exclude()
  class AllHidden {
    @IsOptional() @IsString() name?: string;
  }
  assert.equal(sameAsClassTransformer(AllHidden, { name: 'a' }).name, undefined);

  class Renamed {
    @Expose({ name: 'user_name' }) @IsString() userName!: string;
  }
  assert.equal(sameAsClassTransformer(Renamed, { user_name: 'ada' }).userName, 'ada');
});

test('a @Type with a discriminator, to a built-in, or to no class goes to class-transformer', () => {
  class Animal {
    @IsString() kind!: string;
  }
  class Cat extends Animal {
    @IsString() meow!: string;
  }
  class Dog extends Animal {
    @IsString() bark!: string;
  }
  class Owner {
    @ValidateNested()
    @Type(() => Animal, {
      discriminator: {
        property: 'kind',
        subTypes: [
          { value: Cat, name: 'cat' },
          { value: Dog, name: 'dog' },
        ],
      },
      keepDiscriminatorProperty: true,
    })
    pet!: Animal;
  }
  assert.ok(sameAsClassTransformer(Owner, { pet: { kind: 'dog', bark: 'woof' } }).pet instanceof Dog);

  class Dated {
    @Type(() => Date) when!: Date;
  }
  assert.equal(
    sameAsClassTransformer(Dated, { when: '2026-11-30T00:00:00Z' }).when.toISOString(),
    '2026-11-30T00:00:00.000Z',
  );

  class Nowhere {
    @IsObject() @Type(() => undefined as never) value!: object;
  }
  assert.deepEqual(sameAsClassTransformer(Nowhere, { value: { a: 1 } }).value, { a: 1 });
});

test('what class-transformer builds, it builds without implicit conversion to the declared types', () => {
  class Loose {
    @Expose() @IsString() name!: string;
    @IsOptional() @IsInt() code?: string;
  }
  const built = sameAsClassTransformer(Loose, { name: 'a', code: 5 });
  assert.equal(built.code, 5);
  class Fast {
    @IsString() name!: string;
    @IsOptional() @IsInt() code?: string;
  }
  assert.equal(sameAsClassTransformer(Fast, { name: 'a', code: 5 }).code, 5);
});

test('a Set or a Map of classes goes to class-transformer, which builds the collection', () => {
  class Tag {
    @IsString() name!: string;
  }
  class Tagged {
    @ValidateNested({ each: true }) @Type(() => Tag) tags!: Set<Tag>;
    @IsObject() @Type(() => Tag) byName!: Map<string, Tag>;
  }
  const built = sameAsClassTransformer(Tagged, { tags: [{ name: 'a' }], byName: { x: { name: 'b' } } });
  assert.ok(built.tags instanceof Set);
  assert.ok([...built.tags][0] instanceof Tag);
  assert.ok(built.byName instanceof Map);
  assert.ok(built.byName.get('x') instanceof Tag);
});

test("an error thrown by the DTO's constructor is the caller's, and the constructor runs once", () => {
  let constructed = 0;
  class Fussy {
    @IsString() name!: string;
    constructor() {
      constructed += 1;
      if (constructed === 1) throw new RangeError('first construction fails');
    }
  }
  const build = instantiatorOf(Fussy);
  assert.throws(() => build({ name: 'a' }), { name: 'RangeError', message: 'first construction fails' });
  assert.equal(constructed, 1);
  assert.ok(build({ name: 'a' }) instanceof Fussy);
});

test('null or a primitive where a class is declared is kept as it is', () => {
  class Leaf {
    @IsString() id!: string;
  }
  class Holder {
    @IsOptional() @ValidateNested() @Type(() => Leaf) leaf?: Leaf | null;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Leaf) leaves?: (Leaf | string | null)[];
  }
  assert.equal(sameAsClassTransformer(Holder, { leaf: null }).leaf, null);
  assert.equal(sameAsClassTransformer(Holder, { leaf: 'text' as never }).leaf, 'text');
  assert.equal(sameAsClassTransformer(Holder, { leaf: 3 as never }).leaf, 3);
  const list = sameAsClassTransformer(Holder, { leaves: [null, 'x', { id: 'a' }] }).leaves!;
  assert.deepEqual([list[0], list[1], list[2] instanceof Leaf], [null, 'x', true]);
});

test('own "__proto__" and "constructor" keys are never copied onto the DTO, nor read-only members; setters are used', () => {
  class Members {
    @IsOptional() @IsString() name?: string;
    stored = '';
    get shout(): string {
      return this.stored;
    }
    set shout(value: string) {
      this.stored = value.toUpperCase();
    }
    get fixed(): string {
      return 'fixed';
    }
  }
  const built = instantiatorOf(Members)(
    JSON.parse('{"__proto__":{"polluted":1},"constructor":"x","name":"a","shout":"hi","fixed":"no"}'),
  ) as Members;
  assert.equal(Object.getPrototypeOf(built), Members.prototype);
  assert.equal(built.constructor, Members);
  assert.deepEqual({ ...built }, { stored: 'HI', name: 'a' });
  assert.equal(built.fixed, 'fixed');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  class Free {
    @IsObject() meta!: Record<string, unknown>;
  }
  const free = sameAsClassTransformer(Free, JSON.parse('{"meta":{"__proto__":{"polluted":1},"ok":3}}') as object);
  assert.equal(Object.getPrototypeOf(free.meta), Object.prototype);
  assert.deepEqual(Object.keys(free.meta), ['ok']);
  const same = sameAsClassTransformer(Members, { name: 'a', shout: 'hi', fixed: 'no' });
  assert.equal(same.shout, 'HI');

  class Base {
    run(): string {
      return 'inherited';
    }
  }
  class Child extends Base {
    @IsOptional() @IsString() name?: string;
    callback = (): string => 'own';
  }
  const plain = { name: 'a', run: 'x', callback: 'y' };
  const child = instantiatorOf(Child)(plain) as Child;
  const expected = plainToInstance(Child, plain);
  assert.deepEqual(
    [child.run(), child.callback(), child.name, Object.hasOwn(child, 'run')],
    ['inherited', 'own', 'a', false],
  );
  assert.deepEqual(
    [expected.run(), expected.callback(), expected.name, Object.hasOwn(expected, 'run')],
    ['inherited', 'own', 'a', false],
  );
});

test('@MapOf values are built as their class, into a Map or a plain object, without "__proto__" or "constructor" keys', () => {
  class Label {
    @IsString() text!: string;
  }
  class Maps {
    @MapOf(() => Label) asMap!: Map<string, Label>;
    @MapOf(() => Label) asRecord!: Record<string, Label>;
    @MapOf(String) plain!: Record<string, string>;
    @MapOf(Number) counts!: Map<string, number>;
  }
  const built = instantiatorOf(Maps)(
    JSON.parse(
      '{"asMap":{"a":{"text":"x"},"__proto__":{"text":"p"},"constructor":{"text":"c"}},"asRecord":{"b":{"text":"y"},"list":[{"text":"z"}]},"plain":{"k":"v","constructor":"c"},"counts":{"n":1}}',
    ),
  ) as Maps;
  assert.ok(built.asMap instanceof Map);
  assert.deepEqual([...built.asMap.keys()], ['a']);
  assert.ok(built.asMap.get('a') instanceof Label);
  assert.equal(Object.getPrototypeOf(built.asRecord), Object.prototype);
  assert.deepEqual(Object.keys(built.asRecord), ['b', 'list']);
  assert.ok(built.asRecord.b instanceof Label);
  assert.ok((built.asRecord.list as unknown as Label[])[0] instanceof Label);
  assert.deepStrictEqual(built.plain, { k: 'v' });
  assert.deepEqual([...built.counts.entries()], [['n', 1]]);
});

test('@UnionOf objects are built as the class their discriminator names, or the first member whose schema accepts them', () => {
  class Circle {
    @IsString() kind = 'circle';
    @IsInt() r!: number;
  }
  class Square {
    @IsString() kind = 'square';
    @IsInt() side!: number;
  }
  class ByIssue {
    @IsInt() issue!: number;
  }
  class ByTitle {
    @IsString() title!: string;
  }
  class Unions {
    @IsOptional() @UnionOf({ discriminator: 'kind', cases: { circle: Circle, square: () => Square } }) shape?:
      Circle | Square;
    @IsOptional() @UnionOf([ByIssue, ByTitle, String]) target?: ByIssue | ByTitle | string;
    @IsOptional() @UnionOf({ discriminator: 'kind', cases: { circle: Circle } }) shapes?: Circle[];
  }
  const build = instantiatorOf(Unions);
  const square = (build({ shape: { kind: 'square', side: 2 } }) as Unions).shape;
  assert.ok(square instanceof Square);
  assert.deepEqual({ ...square }, { kind: 'square', side: 2 });
  const unknownKind = (build({ shape: { kind: 'oval', r: 1 } }) as Unions).shape!;
  assert.equal(Object.getPrototypeOf(unknownKind), Object.prototype);
  assert.deepEqual(unknownKind, { kind: 'oval', r: 1 });
  assert.ok((build({ target: { title: 't' } }) as Unions).target instanceof ByTitle);
  assert.ok((build({ target: { issue: 1 } }) as Unions).target instanceof ByIssue);
  assert.equal((build({ target: 'text' }) as Unions).target, 'text');
  const neither = (build({ target: { other: true } }) as Unions).target;
  assert.equal(Object.getPrototypeOf(neither), Object.prototype);
  assert.deepEqual(neither, { other: true });
  const shapes = (build({ shapes: [{ kind: 'circle', r: 1 }] }) as Unions).shapes!;
  assert.ok(shapes[0] instanceof Circle);
});

test('a type function that throws, or names no class, leaves the values as plain JSON', () => {
  class Label {
    @IsString() text!: string;
  }
  class Odd {
    @MapOf(() => {
      throw new Error('not yet');
    })
    broken!: Record<string, unknown>;
    @UnionOf([() => Label, Number]) either!: Label | number;
  }
  const built = instantiatorOf(Odd)({ broken: { a: { text: 'x' } }, either: { text: 'y' } }) as Odd;
  assert.equal(Object.getPrototypeOf(built.broken.a), Object.prototype);
  assert.ok(built.either instanceof Label);
});

test('a @MapOf or @UnionOf of a class that needs class-transformer sends the whole build there', () => {
  class Renamed {
    @Expose({ name: 'user_name' }) @IsString() userName!: string;
  }
  class Slow {
    @IsOptional() @MapOf(() => Renamed) map?: Record<string, Renamed>;
    @IsOptional() @UnionOf({ discriminator: 'kind', cases: { renamed: Renamed } }) one?: Renamed;
    @IsOptional() @UnionOf([Renamed, String]) either?: Renamed | string;
  }
  for (const plain of [
    { map: { a: { user_name: 'x' } } },
    { one: { kind: 'renamed', user_name: 'y' } },
    { either: { user_name: 'z' } },
    { either: { userName: 'z' } },
  ]) {
    assert.deepStrictEqual(
      instantiatorOf(Slow)(plain),
      plainToInstance(Slow, plain, { enableImplicitConversion: false }),
      JSON.stringify(plain),
    );
  }
});

test('shape members named directly or by a function, a case whose function throws, a primitive member before classes', () => {
  class Label {
    @IsString() text!: string;
  }
  class ByTitle {
    @IsString() title!: string;
  }
  class Shapes {
    @IsOptional() @MapOf(Label) direct?: Record<string, Label>;
    @IsOptional()
    @UnionOf({
      discriminator: 'kind',
      cases: {
        label: Label,
        broken: () => {
          throw new Error('not yet');
        },
      },
    })
    one?: Label;
    @IsOptional() @UnionOf([String, ByTitle]) either?: string | ByTitle;
  }
  const build = instantiatorOf(Shapes);
  assert.ok((build({ direct: { a: { text: 'x' } } }) as Shapes).direct!.a instanceof Label);
  assert.ok((build({ one: { kind: 'label', text: 'x' } }) as Shapes).one instanceof Label);
  const broken = (build({ one: { kind: 'broken', text: 'x' } }) as Shapes).one!;
  assert.equal(Object.getPrototypeOf(broken), Object.prototype);
  assert.deepEqual(broken, { kind: 'broken', text: 'x' });
  const empty = (build({ either: {} }) as Shapes).either;
  assert.equal(Object.getPrototypeOf(empty), Object.prototype);
  assert.ok((build({ either: { title: 't' } }) as Shapes).either instanceof ByTitle);
});

test('a @Type to a plain class is built here, so a "constructor" key in untyped JSON under it is dropped where class-transformer throws', () => {
  class Inner {
    @IsObject() meta!: Record<string, unknown>;
  }
  class Outer {
    @ValidateNested() @Type(() => Inner) inner!: Inner;
  }
  const plain = JSON.parse('{"inner":{"meta":{"constructor":1,"ok":2}}}') as object;
  assert.throws(() => plainToInstance(Outer, plain), TypeError);
  const built = instantiatorOf(Outer)(plain) as Outer;
  assert.ok(built.inner instanceof Inner);
  assert.deepStrictEqual(built.inner.meta, { ok: 2 });
});
