import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { IsArray, IsInt, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { cleanSchema, generated, objectSchema } from './support/schema-helpers.js';
import { compileSchema } from '../src/compiler/validation/validator.js';

test('a nested DTO is inlined, through @ValidateNested + @Type or design:type alone', () => {
  class Point {
    @IsInt() x!: number;
    @IsInt() y!: number;
  }
  class Args {
    @ValidateNested() @Type(() => Point) from!: Point;
    @ValidateNested() to!: Point;
    via!: Point;
  }
  // `via` has no decorator at all: it is not a property of the schema (and is reported).
  const point = objectSchema({ x: { type: 'integer' }, y: { type: 'integer' } });
  const result = generated(Args);
  assert.deepEqual(result.schema, objectSchema({ from: point, to: point }));
  assert.deepEqual(
    result.issues.map((issue) => issue.member),
    ['via'],
  );
});

test('arrays of nested DTOs, with or without each: true', () => {
  class Item {
    @IsString() sku!: string;
    @IsInt() @Min(1) quantity!: number;
  }
  class Order {
    @IsArray() @ValidateNested({ each: true }) @Type(() => Item) items!: Item[];
    @ValidateNested() @Type(() => Item) extras!: Item[];
  }
  const item = objectSchema({ sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } });
  assert.deepEqual(
    cleanSchema(Order),
    objectSchema({ items: { type: 'array', items: item }, extras: { type: 'array', items: item } }),
  );
});

test('an optional nested DTO admits null through a type list, the form client libraries keep', () => {
  class Filter {
    @IsString() field!: string;
  }
  class Args {
    @IsOptional() @ValidateNested() @Type(() => Filter) filter?: Filter;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        filter: { ...objectSchema({ field: { type: 'string' } }), type: ['object', 'null'] },
      },
      [],
    ),
  );
});

test('a recursive DTO goes through $defs, and only the recursive classes do', () => {
  class Leaf {
    @IsString() name!: string;
  }
  class TreeNode {
    @IsString() label!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
    @ValidateNested() @Type(() => Leaf) leaf!: Leaf;
  }
  class Args {
    @ValidateNested() @Type(() => TreeNode) root!: TreeNode;
    @ValidateNested() @Type(() => Leaf) other!: Leaf;
  }
  const leaf = objectSchema({ name: { type: 'string' } });
  const tree = objectSchema(
    {
      label: { type: 'string' },
      children: { type: ['array', 'null'], items: { $ref: '#/$defs/TreeNode' } },
      leaf,
    },
    ['label', 'leaf'],
  );
  assert.deepEqual(cleanSchema(Args), {
    ...objectSchema({ root: { $ref: '#/$defs/TreeNode' }, other: leaf }),
    $defs: { TreeNode: tree },
  });
});

test('a recursive root class is its own $defs entry', () => {
  class Category {
    @IsString() name!: string;
    @IsOptional() @ValidateNested() @Type(() => Category) parent?: Category;
  }
  const body = objectSchema(
    { name: { type: 'string' }, parent: { anyOf: [{ $ref: '#/$defs/Category' }, { type: 'null' }] } },
    ['name'],
  );
  const schema = cleanSchema(Category);
  assert.deepEqual(schema, { ...body, $defs: { Category: body } });
  const validate = compileSchema(schema);
  assert.equal(validate({ name: 'a', parent: { name: 'b', parent: { name: 'c', parent: null } } }), true);
  assert.equal(validate({ name: 'a', parent: { name: 'b', parent: { name: 3 } } }), false);
});

test('mutually recursive classes both go into $defs', () => {
  class Person {
    @IsString() name!: string;
    @IsOptional() @ValidateNested() @Type(() => Company) employer?: unknown;
  }
  class Company {
    @IsString() title!: string;
    @ValidateNested({ each: true }) @Type(() => Person) staff!: Person[];
  }
  const schema = cleanSchema(Person);
  assert.deepEqual(schema, {
    ...objectSchema(
      { name: { type: 'string' }, employer: { anyOf: [{ $ref: '#/$defs/Company' }, { type: 'null' }] } },
      ['name'],
    ),
    $defs: {
      Person: objectSchema(
        { name: { type: 'string' }, employer: { anyOf: [{ $ref: '#/$defs/Company' }, { type: 'null' }] } },
        ['name'],
      ),
      Company: objectSchema({ title: { type: 'string' }, staff: { type: 'array', items: { $ref: '#/$defs/Person' } } }),
    },
  });
});

test('two different recursive classes with the same name get distinct $defs names', () => {
  const makeNode = (field: string) => {
    class Node {
      @IsOptional() @ValidateNested() @Type(() => Node) next?: Node;
    }
    IsString()(Node.prototype, field);
    return Node;
  };
  const A = makeNode('a');
  const B = makeNode('b');
  class Args {
    @ValidateNested() @Type(() => A) first!: InstanceType<typeof A>;
    @ValidateNested() @Type(() => B) second!: InstanceType<typeof B>;
  }
  const nodeOf = (ref: string, field: string) =>
    objectSchema({ next: { anyOf: [{ $ref: ref }, { type: 'null' }] }, [field]: { type: 'string' } }, [field]);
  assert.deepEqual(cleanSchema(Args), {
    ...objectSchema({ first: { $ref: '#/$defs/Node' }, second: { $ref: '#/$defs/Node_2' } }),
    $defs: { Node: nodeOf('#/$defs/Node', 'a'), Node_2: nodeOf('#/$defs/Node_2', 'b') },
  });
});

test('a subclass has its base class properties first, in declaration order', () => {
  class Paging {
    @IsOptional() @IsInt() @Min(0) offset?: number;
    @IsInt() limit!: number;
  }
  class Search extends Paging {
    @IsString() query!: string;
    @Min(1) declare limit: number;
  }
  // class-validator lets a subclass's rules of a property replace all the base class's rules of
  // that property (of the same kind): @IsInt() is gone, as it is for validate().
  assert.deepEqual(
    cleanSchema(Search),
    objectSchema(
      {
        offset: { type: ['integer', 'null'], minimum: 0 },
        limit: { type: 'number', minimum: 1 },
        query: { type: 'string' },
      },
      ['limit', 'query'],
    ),
  );
  assert.deepEqual(
    cleanSchema(Paging),
    objectSchema({ offset: { type: ['integer', 'null'], minimum: 0 }, limit: { type: 'integer' } }, ['limit']),
  );
});

test('a discriminated @Type is anyOf its subtypes, each with its discriminator value', () => {
  abstract class Shape {}
  class Circle extends Shape {
    @IsInt() @Min(0) radius!: number;
  }
  class Square extends Shape {
    @IsString() kind!: string;
    @IsInt() side!: number;
  }
  const discriminator = {
    property: 'kind',
    subTypes: [
      { name: 'circle', value: Circle },
      { name: 'square', value: Square },
    ],
  };
  class Args {
    @ValidateNested() @Type(() => Shape, { discriminator, keepDiscriminatorProperty: true }) shape!: Shape;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Shape, { discriminator }) more?: Shape[];
  }
  const circle = objectSchema({ radius: { type: 'integer', minimum: 0 }, kind: { type: 'string', const: 'circle' } }, [
    'radius',
    'kind',
  ]);
  const square = objectSchema({ kind: { type: 'string', const: 'square' }, side: { type: 'integer' } });
  const schema = cleanSchema(Args);
  assert.deepEqual(
    schema,
    objectSchema(
      {
        shape: { anyOf: [circle, square] },
        more: { type: ['array', 'null'], items: { anyOf: [circle, square] } },
      },
      ['shape'],
    ),
  );
  const validate = compileSchema(schema);
  assert.equal(validate({ shape: { kind: 'circle', radius: 2 } }), true);
  assert.equal(validate({ shape: { kind: 'square', side: 2 }, more: [{ kind: 'circle', radius: 1 }] }), true);
  assert.equal(validate({ shape: { kind: 'circle', side: 2 } }), false);
  assert.equal(validate({ shape: { kind: 'triangle' } }), false);
});

test('an optional discriminated @Type adds null to its anyOf', () => {
  class A {
    @IsString() a!: string;
  }
  class Args {
    @IsOptional()
    @ValidateNested()
    @Type(() => A, { discriminator: { property: 't', subTypes: [{ name: 'a', value: A }] } })
    value?: A;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        value: {
          anyOf: [
            objectSchema({ a: { type: 'string' }, t: { type: 'string', const: 'a' } }, ['a', 't']),
            { type: 'null' },
          ],
        },
      },
      [],
    ),
  );
});
