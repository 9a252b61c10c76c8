import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { IsBoolean, IsInt, IsOptional, IsString } from 'class-validator';
import { Description, Field, defineField } from '../src/decorators/index.js';
import { cleanSchema, generated, objectSchema } from './support/schema-helpers.js';
import { optionalPropertiesOf } from '../src/compiler/schema/index.js';

test('@Description and @Field land under their JSON Schema keywords', () => {
  class Args {
    @Description('Path relative to the workspace root') @IsString() path!: string;
    @Field({ title: 'Limit', description: 'Lines to read', examples: [10, 100], deprecated: true })
    @IsOptional()
    @IsInt()
    limit?: number;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        path: { description: 'Path relative to the workspace root', type: 'string' },
        limit: {
          title: 'Limit',
          description: 'Lines to read',
          type: ['integer', 'null'],
          examples: [10, 100],
          deprecated: true,
        },
      },
      ['path'],
    ),
  );
});

test('a property with only @Description or @Field takes its type from design:type', () => {
  class Args {
    @Description('Who') name!: string;
    @Field({ title: 'Count' }) count!: number;
    @Description('On or off') on!: boolean;
    @Description('When') at!: Date;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({
      name: { description: 'Who', type: 'string' },
      count: { title: 'Count', type: 'number' },
      on: { description: 'On or off', type: 'boolean' },
      at: { description: 'When', type: 'string', format: 'date-time' },
    }),
  );
});

test('property initialisers become defaults, and a defaulted property is not required', () => {
  class Args {
    @IsString() query!: string;
    @IsInt() limit = 20;
    @IsBoolean() recursive = false;
    @IsString({ each: true }) tags: string[] = ['a'];
    @IsOptional() @IsString() mode?: string = 'fast';
    @IsOptional() @IsString() nothing?: string = undefined;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      {
        query: { type: 'string' },
        limit: { type: ['integer', 'null'], default: 20 },
        recursive: { type: ['boolean', 'null'], default: false },
        tags: { type: ['array', 'null'], items: { type: 'string' }, default: ['a'] },
        mode: { type: ['string', 'null'], default: 'fast' },
        nothing: { type: ['string', 'null'] },
      },
      ['query'],
    ),
  );
});

test('@Field({ default }) wins over the initialiser and also makes the property optional', () => {
  class Args {
    @Field({ default: 5 }) @IsInt() retries = 3;
    @Field({ default: 'utf8' }) @IsString() encoding!: string;
  }
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema(
      { retries: { type: ['integer', 'null'], default: 5 }, encoding: { type: ['string', 'null'], default: 'utf8' } },
      [],
    ),
  );
});

test('an initialiser that is not JSON is no default; a constructor that throws gives no defaults', () => {
  class Strict {
    @IsInt() limit = 10;
    constructor(required: number) {
      if (required === undefined) throw new Error('needs an argument');
    }
  }
  assert.deepEqual(cleanSchema(Strict), objectSchema({ limit: { type: 'integer' } }));
  // Not JSON, so no default; but class-transformer keeps the initialiser when the key is left
  // out, so the property is not required either.
  class Dated {
    @IsString() stamp: string = new Date(0) as unknown as string;
  }
  assert.deepEqual(cleanSchema(Dated), objectSchema({ stamp: { type: ['string', 'null'] } }, []));
});

test('a default is copied, so changing the initial value later does not change the schema', () => {
  const shared = { depth: 1 };
  class Args {
    @Field({ default: shared }) @IsInt() value!: number;
  }
  const schema = cleanSchema(Args);
  shared.depth = 2;
  assert.deepEqual(schema, objectSchema({ value: { type: ['integer', 'null'], default: { depth: 1 } } }, []));
});

test('defineField (no decorator syntax) describes a property class-validator knows', () => {
  class Args {
    @IsString() name!: string;
  }
  defineField(Args, 'name', { description: 'The name', examples: ['ada'] });
  assert.deepEqual(
    cleanSchema(Args),
    objectSchema({ name: { description: 'The name', type: 'string', examples: ['ada'] } }),
  );
});

test('optionalPropertiesOf lists the @IsOptional properties, inherited ones included', () => {
  class Base {
    @IsOptional() @IsString() note?: string;
    @IsString() id!: string;
  }
  class Args extends Base {
    @IsOptional() @IsInt() limit?: number;
    @IsInt() page = 1;
  }
  assert.deepEqual([...optionalPropertiesOf(Args)].sort(), ['limit', 'note']);
  assert.deepEqual([...optionalPropertiesOf(Base)], ['note']);
  assert.deepEqual([...optionalPropertiesOf(42 as unknown as Function)], []);
});

test('a result class gets the same schema', () => {
  class Result {
    @Description('Lines read') @IsInt() lines!: number;
    @IsOptional() @IsString() warning?: string;
  }
  const result = generated(Result, { role: 'result' });
  assert.deepEqual(
    result.schema,
    objectSchema({ lines: { description: 'Lines read', type: 'integer' }, warning: { type: ['string', 'null'] } }, [
      'lines',
    ]),
  );
  assert.deepEqual(result.issues, []);
});

test('a property named __proto__ stays a plain data key of properties', () => {
  class Args {}
  IsString()(Args.prototype, '__proto__');
  defineField(Args, '__proto__', { description: 'odd but legal' });
  const schema = cleanSchema(Args);
  const properties = schema.properties as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(properties), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(properties, '__proto__')?.value, {
    description: 'odd but legal',
    type: 'string',
  });
  assert.deepEqual(schema.required, ['__proto__']);
});
