import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainToInstance, Transform, Type, Expose } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, ValidateNested, IsDate, IsArray } from 'class-validator';
import { instantiatorOf } from '../src/compiler/validation/instantiate.js';
import { sameAsClassTransformer } from './support/validation-helpers.js';

// The fast builder must give exactly what class-transformer gives, prototypes included.
const assertSameAsClassTransformer = sameAsClassTransformer as (dto: new () => object, plain: object) => object;

test('a flat DTO keeps initialiser defaults for keys left out and copies the rest', () => {
  class Flat {
    @IsString() name!: string;
    @IsOptional() @IsInt() limit?: number = 10;
  }
  const built = assertSameAsClassTransformer(Flat, { name: 'a' }) as Flat;
  assert.equal(built.limit, 10);
  assertSameAsClassTransformer(Flat, { name: 'b', limit: 3 });
});

test('nested @Type classes, arrays of them, arrays of arrays and recursive classes are built as instances', () => {
  class Leaf {
    @IsString() id!: string;
  }
  class Node {
    @IsString() name!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[];
    @IsOptional() @ValidateNested() @Type(() => Leaf) leaf?: Leaf;
    @IsOptional() @IsArray() @Type(() => Leaf) grid?: Leaf[][];
  }
  const built = assertSameAsClassTransformer(Node, {
    name: 'root',
    leaf: { id: 'x' },
    children: [
      { name: 'a', children: [{ name: 'a1' }] },
      { name: 'b', leaf: { id: 'y' } },
    ],
    grid: [[{ id: '1' }, { id: '2' }], []],
  }) as Node;
  assert.ok(built.children![0]!.children![0] instanceof Node);
  assert.ok(built.grid![0]![1] instanceof Leaf);
});

test('untyped nested JSON is copied deeply and drops the keys class-transformer drops', () => {
  class Free {
    @IsObject() meta!: Record<string, unknown>;
  }
  const plain = JSON.parse(
    '{"meta":{"__proto__":{"polluted":1},"toString":"x","hasOwnProperty":2,"ok":[{"deep":true}],"n":null}}',
  ) as object;
  const built = assertSameAsClassTransformer(Free, plain) as Free;
  assert.deepStrictEqual(Object.keys(built.meta), ['ok', 'n']);
  (built.meta.ok as { deep: boolean }[])[0]!.deep = false;
  assert.equal(
    ((plain as Free).meta.ok as { deep: boolean }[])[0]!.deep,
    true,
    'the input is never shared with the DTO',
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('a nested "constructor" key is dropped, where class-transformer 0.5.1 throws a TypeError', () => {
  class Free {
    @IsObject() meta!: Record<string, unknown>;
  }
  const plain = JSON.parse('{"meta":{"constructor":1,"ok":2}}') as object;
  assert.throws(() => plainToInstance(Free, plain), {
    name: 'TypeError',
    message: "Cannot read properties of undefined (reading 'constructor')",
  });
  const built = instantiatorOf(Free)(plain) as Free;
  assert.ok(built instanceof Free);
  assert.deepStrictEqual(built.meta, { ok: 2 });
});

test('keys naming a method or a getter without a setter are not set, as class-transformer does', () => {
  class Members {
    @IsString() name!: string;
    run(): string {
      return 'method';
    }
    get label(): string {
      return 'getter';
    }
  }
  const built = assertSameAsClassTransformer(Members, { name: 'a', run: 'x', label: 'y' }) as Members;
  assert.equal(built.run(), 'method');
  assert.equal(built.label, 'getter');
});

test('@Transform, @Expose with a name, discriminators and @Type(() => Date) defer to class-transformer', () => {
  class Shouting {
    @Transform(({ value }) => String(value).toUpperCase()) @IsString() word!: string;
  }
  assert.equal((assertSameAsClassTransformer(Shouting, { word: 'hi' }) as Shouting).word, 'HI');

  class Renamed {
    @Expose({ name: 'user_name' }) @IsString() userName!: string;
  }
  assert.equal((assertSameAsClassTransformer(Renamed, { user_name: 'ada' }) as Renamed).userName, 'ada');

  class Cat {
    @IsString() kind = 'cat';
    @IsString() meow!: string;
  }
  class Dog {
    @IsString() kind = 'dog';
    @IsString() bark!: string;
  }
  class Owner {
    @ValidateNested()
    @Type(() => Object, {
      discriminator: {
        property: 'kind',
        subTypes: [
          { value: Cat, name: 'cat' },
          { value: Dog, name: 'dog' },
        ],
      },
      keepDiscriminatorProperty: true,
    })
    pet!: Cat | Dog;
  }
  const owner = assertSameAsClassTransformer(Owner, { pet: { kind: 'dog', bark: 'woof' } }) as Owner;
  assert.ok(owner.pet instanceof Dog);
  assert.deepEqual({ ...owner.pet }, { kind: 'dog', bark: 'woof' });

  class Dated {
    @IsDate() @Type(() => Date) when!: Date;
  }
  const dated = assertSameAsClassTransformer(Dated, { when: '2026-11-30T00:00:00Z' }) as Dated;
  assert.ok(dated.when instanceof Date);
  assert.equal(dated.when.toISOString(), '2026-11-30T00:00:00.000Z');
});

test('a nested class that needs class-transformer sends the whole build there, with the same result', () => {
  class Inner {
    @Transform(({ value }) => Number(value) * 2) @IsInt() n!: number;
  }
  class Outer {
    @IsString() name!: string;
    @ValidateNested() @Type(() => Inner) inner!: Inner;
  }
  const built = assertSameAsClassTransformer(Outer, { name: 'x', inner: { n: 2 } }) as Outer;
  assert.equal(built.inner.n, 4);
});
