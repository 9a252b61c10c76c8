import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { Equals, IsEnum, IsIn, IsNotIn, IsOptional, IsString } from 'class-validator';
import { cleanSchema, objectSchema, valueSchema } from './support/schema-helpers.js';
import { compileSchema } from '../src/compiler/validation/validator.js';

enum Direction {
  Up = 'up',
  Down = 'down',
}
enum Level {
  Low = 1,
  High = 2,
}
enum Sparse {
  A = 0,
  B = 5,
  C = 10,
}
enum Mixed {
  No = 0,
  Yes = 'yes',
}

test('a string enum lists its values with type string', () => {
  class Args {
    @IsEnum(Direction) value!: Direction;
  }
  assert.deepEqual(valueSchema(Args), { type: 'string', enum: ['up', 'down'] });
});

test('a numeric enum lists its numbers only (no reverse-mapping names) with type integer', () => {
  class Args {
    @IsEnum(Level) value!: Level;
  }
  class SparseArgs {
    @IsEnum(Sparse) value!: Sparse;
  }
  assert.deepEqual(valueSchema(Args), { type: 'integer', enum: [1, 2] });
  assert.deepEqual(valueSchema(SparseArgs), { type: 'integer', enum: [0, 5, 10] });
  const validate = compileSchema(cleanSchema(Args));
  assert.equal(validate({ value: 1 }), true);
  assert.equal(validate({ value: 'Low' }), false);
});

test('a mixed enum has a type list', () => {
  class Args {
    @IsEnum(Mixed) value!: Mixed;
  }
  assert.deepEqual(valueSchema(Args), { type: ['string', 'integer'], enum: [0, 'yes'] });
});

test('an enum given as a plain object works like a TypeScript enum', () => {
  const Shape = { Circle: 'circle', Square: 'square' } as const;
  class Args {
    @IsEnum(Shape) value!: string;
  }
  assert.deepEqual(valueSchema(Args), { type: 'string', enum: ['circle', 'square'] });
});

test('an optional enum admits null in type and enum', () => {
  class Args {
    @IsOptional() @IsEnum(Level) level?: Level;
    @IsOptional() @IsIn(['a', 'b']) letter?: string;
    @IsOptional() @Equals('on') flag?: string;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        level: { type: ['integer', 'null'], enum: [1, 2, null] },
        letter: { type: ['string', 'null'], enum: ['a', 'b', null] },
        flag: { type: ['string', 'null'], enum: ['on', null] },
      },
      [],
    ),
  );
  const validate = compileSchema(cleanSchema(Args));
  assert.equal(validate({ level: null, letter: null, flag: null }), true);
  assert.equal(validate({ level: 3 }), false);
});

test('@IsIn with null lists null; objects in the list can never match and are left out', () => {
  class Args {
    @IsIn([null, 'x']) nullable!: string | null;
    @IsIn(['k', { k: 1 }, Number.NaN]) odd!: string;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      nullable: { type: ['string', 'null'], enum: [null, 'x'] },
      odd: { type: 'string', enum: ['k'] },
    }),
  );
});

test('@IsEnum and @IsIn together keep only the values both allow', () => {
  class Args {
    @IsEnum(Direction) @IsIn(['up', 'left']) value!: Direction;
  }
  assert.deepEqual(valueSchema(Args), { type: 'string', enum: ['up'] });
});

test('an optional @IsNotIn(null) does not forbid the null @IsOptional allows', () => {
  class Args {
    @IsOptional() @IsString() @IsNotIn([null, 'root']) value?: string;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ value: { type: ['string', 'null'], not: { const: 'root' } } }, []),
  );
});
