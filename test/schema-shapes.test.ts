import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { Equals, IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { DecoratorError, MapOf, UnionOf, compile } from '../src/index.js';
import { createArgumentsPipeline } from '../src/compiler/index.js';
import { cleanSchema, generated, objectSchema } from './support/schema-helpers.js';
import { invalidMessage } from './support/compile-helpers.js';

/** Builds the DTO `dto` makes of `raw` through the whole arguments pipeline. */
async function parsed(dto: Function, raw: unknown): Promise<object> {
  return createArgumentsPipeline({ schema: cleanSchema(dto), dto }).parse(raw);
}

test('@MapOf(String) on a Record is an object with typed additionalProperties, and arrives as a plain object', async () => {
  class Args {
    @MapOf(String) labels!: Record<string, string>;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ labels: { type: 'object', additionalProperties: { type: 'string' } } }),
  );
  const dto = (await parsed(Args, { labels: { a: 'x', b: 'y' } })) as Args;
  assert.ok(dto instanceof Args);
  assert.deepEqual(dto.labels, { a: 'x', b: 'y' });
  assert.equal(Object.getPrototypeOf(dto.labels), Object.prototype);
  assert.equal(
    await invalidMessage(parsed(Args, { labels: { a: 1 } })),
    'invalid arguments: /labels/a: must be string',
  );
});

test('@MapOf(() => Class) on a Map gives each value its class and the property a Map', async () => {
  class Label {
    @IsString() color!: string;
  }
  class Args {
    @MapOf(() => Label) labels!: Map<string, Label>;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      labels: { type: 'object', additionalProperties: objectSchema({ color: { type: 'string' } }) },
    }),
  );
  const dto = (await parsed(Args, { labels: { bug: { color: 'red' } } })) as Args;
  assert.ok(dto.labels instanceof Map);
  assert.deepEqual([...dto.labels.keys()], ['bug']);
  assert.ok(dto.labels.get('bug') instanceof Label);
  assert.equal(dto.labels.get('bug')!.color, 'red');
  assert.equal(
    await invalidMessage(parsed(Args, { labels: { bug: { colour: 'red' } } })),
    'invalid arguments: /labels/bug: must have required property "color"; /labels/bug: must NOT have additional property "colour"',
  );
});

test('@UnionOf([String, Number]) is an anyOf of the primitives and refuses anything else', async () => {
  class Args {
    @UnionOf([String, Number]) id!: string | number;
  }
  assert.deepEqual(cleanSchema(Args), objectSchema({ id: { anyOf: [{ type: 'string' }, { type: 'number' }] } }));
  assert.deepEqual({ ...(await parsed(Args, { id: 'a' })) }, { id: 'a' });
  assert.deepEqual({ ...(await parsed(Args, { id: 7 })) }, { id: 7 });
  assert.equal(await invalidMessage(parsed(Args, { id: true })), 'invalid arguments: /id: must be string or number');
});

test('a discriminated @UnionOf fixes the discriminator per case and builds the class it names', async () => {
  class Circle {
    @IsString() kind!: 'circle';
    @IsInt() @Min(0) radius!: number;
  }
  class Square {
    @IsString() kind!: 'square';
    @IsInt() side!: number;
  }
  class Args {
    @UnionOf({ discriminator: 'kind', cases: { circle: Circle, square: () => Square } }) shape!: Circle | Square;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      shape: {
        anyOf: [
          objectSchema({ kind: { type: 'string', const: 'circle' }, radius: { type: 'integer', minimum: 0 } }),
          objectSchema({ kind: { type: 'string', const: 'square' }, side: { type: 'integer' } }),
        ],
      },
    }),
  );
  const circle = (await parsed(Args, { shape: { kind: 'circle', radius: 2 } })) as Args;
  assert.ok(circle.shape instanceof Circle);
  const square = (await parsed(Args, { shape: { kind: 'square', side: 3 } })) as Args;
  assert.ok(square.shape instanceof Square);
  assert.equal(
    await invalidMessage(parsed(Args, { shape: { kind: 'circle', radius: -1 } })),
    'invalid arguments: /shape/radius: must be >= 0',
  );
  assert.equal(
    await invalidMessage(parsed(Args, { shape: { kind: 'triangle', side: 1 } })),
    'invalid arguments: /shape/kind: must be one of "circle", "square"',
  );
});

test('a discriminated case without the discriminator property gets it added and required', async () => {
  class Text {
    @IsString() text!: string;
  }
  class Image {
    @IsString() url!: string;
  }
  class Args {
    @UnionOf({ discriminator: 'type', cases: { text: Text, image: Image } }) parts!: (Text | Image)[];
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      parts: {
        type: 'array',
        items: {
          anyOf: [
            objectSchema({ text: { type: 'string' }, type: { type: 'string', const: 'text' } }, ['text', 'type']),
            objectSchema({ url: { type: 'string' }, type: { type: 'string', const: 'image' } }, ['url', 'type']),
          ],
        },
      },
    }),
  );
});

test('a plain @UnionOf of classes builds the first class whose schema accepts the object', async () => {
  class ByIssue {
    @IsInt() issue!: number;
  }
  class ByTitle {
    @IsString() title!: string;
  }
  class Args {
    @UnionOf([ByIssue, ByTitle, String]) target!: ByIssue | ByTitle | string;
  }
  const byTitle = (await parsed(Args, { target: { title: 'crash' } })) as Args;
  assert.ok(byTitle.target instanceof ByTitle);
  const byIssue = (await parsed(Args, { target: { issue: 4 } })) as Args;
  assert.ok(byIssue.target instanceof ByIssue);
  assert.equal(((await parsed(Args, { target: 'x' })) as Args).target, 'x');
});

test('an optional union gets a null member, and null reaches the tool as left out', async () => {
  class Args {
    @IsOptional() @UnionOf([String, Number]) id?: string | number;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ id: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] } }, []),
  );
  const dto = (await parsed(Args, { id: null })) as Args;
  assert.equal(dto.id, undefined);
});

test('every optional property follows one rule: out of required, null admitted and read as left out', async () => {
  class Label {
    @IsString() name!: string;
  }
  class Args {
    @IsString() title!: string;
    @IsOptional() @IsString() body?: string;
    @IsIn(['low', 'high'], { each: true }) priorities: string[] = ['low'];
    @IsInt() limit = 20;
    @MapOf(() => Label) labels: Record<string, Label> = {};
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        title: { type: 'string' },
        body: { type: ['string', 'null'] },
        priorities: { type: ['array', 'null'], items: { type: 'string', enum: ['low', 'high'] }, default: ['low'] },
        limit: { type: ['integer', 'null'], default: 20 },
        labels: {
          type: ['object', 'null'],
          additionalProperties: objectSchema({ name: { type: 'string' } }),
          default: {},
        },
      },
      ['title'],
    ),
  );
  const dto = (await parsed(Args, { title: 't', body: null, priorities: null, limit: null, labels: null })) as Args;
  assert.deepEqual([dto.title, dto.body, dto.priorities, dto.limit, dto.labels], ['t', undefined, ['low'], 20, {}]);
});

test('a compiled tool gets the union and map instances in execute', async () => {
  class Circle {
    @Equals('circle') kind!: 'circle';
    @IsInt() radius!: number;
  }
  class Args {
    @UnionOf({ discriminator: 'kind', cases: { circle: Circle } }) shape!: Circle;
    @MapOf(Number) weights!: Record<string, number>;
  }
  const seen: unknown[] = [];
  class Draw {
    execute(args: Args) {
      seen.push(args.shape instanceof Circle, args.weights);
      return 'ok';
    }
  }
  const { Tool } = await import('../src/index.js');
  Tool({ description: 'Draws', args: Args })(Draw);
  const [tool] = compile([Draw]);
  assert.deepEqual(
    tool!.parameters,
    objectSchema({
      shape: { anyOf: [objectSchema({ kind: { type: 'string', const: 'circle' }, radius: { type: 'integer' } })] },
      weights: { type: 'object', additionalProperties: { type: 'number' } },
    }),
  );
  const { createCallContext } = await import('../src/runtime/index.js');
  await tool!.execute(
    { shape: { kind: 'circle', radius: 1 }, weights: { a: 0.5 } },
    createCallContext({ call: { id: '1', tool: 'draw', args: {} } }),
  );
  assert.deepEqual(seen, [true, { a: 0.5 }]);
});

test('a type function that throws is reported with the decorator and the fix', () => {
  class Args {
    @MapOf(() => {
      throw new Error('not yet');
    })
    labels!: Record<string, unknown>;
  }
  assert.deepEqual(generated(Args).issues, [
    {
      code: 'unknown-property-type',
      className: 'Args',
      member: 'labels',
      message:
        'Args.labels: @MapOf(): its type function threw (not yet); name a class, String, Number, Boolean or Date, or () => Class',
    },
  ]);
});

test('@MapOf and @UnionOf refuse bad arguments at once, naming the decorator', () => {
  const thrown = (fn: () => unknown): string => {
    try {
      fn();
    } catch (error) {
      assert.ok(error instanceof DecoratorError);
      return error.message;
    }
    return assert.fail('expected a DecoratorError');
  };
  assert.equal(
    thrown(() => MapOf('string' as never)),
    '@MapOf(): the value type must be String, Number, Boolean, Date, a class, or () => Class, got a string',
  );
  assert.equal(
    thrown(() => UnionOf([])),
    '@UnionOf(): list at least one member type, for example @UnionOf([String, Number])',
  );
  assert.equal(
    thrown(() => UnionOf([String, 3 as never])),
    '@UnionOf(): member 1 must be String, Number, Boolean, Date, a class, or () => Class, got a number',
  );
  assert.equal(
    thrown(() => UnionOf({ discriminator: '', cases: {} })),
    '@UnionOf(): "discriminator" must be the name of the property that tells the cases apart, got a string',
  );
  assert.equal(
    thrown(() => UnionOf({ discriminator: 'kind', cases: {} })),
    '@UnionOf(): "cases" must map each kind value to its class, for example { circle: Circle }, got an object',
  );
  assert.equal(
    thrown(() => UnionOf({ discriminator: 'kind', cases: { a: String } })),
    '@UnionOf(): case "a" must be a class (a discriminated union holds objects), got String',
  );
  assert.equal(
    thrown(() => UnionOf({ discriminator: 'kind', cases: { a: class {} }, extra: 1 } as never)),
    '@UnionOf() has no option "extra" (known options: discriminator, cases)',
  );
});

test('a property known only to @UnionOf, @MapOf or @Description keeps its declared place', () => {
  class Args {
    @UnionOf([Number, String]) issue!: number | string;
    @IsString() body!: string;
    @MapOf(String) tags!: Record<string, string>;
    @IsInt() count!: number;
  }
  assert.deepEqual(Object.keys(cleanSchema(Args).properties as object), ['issue', 'body', 'tags', 'count']);
});
