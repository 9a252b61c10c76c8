import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  IsObject,
} from 'class-validator';
import { Type } from 'class-transformer';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Description, type ContractTool } from '../src/index.js';
import { formSchemaOf } from '../src/mcp/server/index.js';
import { serve } from './support/server-harness.js';

enum Color {
  Red = 'red',
  Green = 'green',
}

function signupForm() {
  class Signup {
    @Description('Your name') @IsString() @MaxLength(40) name!: string;
    @IsOptional() @IsInt() @Min(0) @Max(150) age?: number;
    @IsBoolean() subscribe: boolean = true;
    @IsEnum(Color) color!: Color;
    @IsIn(['a', 'b']) choice!: string;
    @IsEmail() email!: string;
    @IsArray() @IsEnum(Color, { each: true }) colors!: Color[];
  }
  return Signup;
}

test('formSchemaOf makes a flat MCP form schema from a DTO class', () => {
  assert.deepEqual(formSchemaOf(signupForm()), {
    type: 'object',
    properties: {
      name: { description: 'Your name', type: 'string', maxLength: 40 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      subscribe: { type: 'boolean', default: true },
      color: { type: 'string', enum: ['red', 'green'] },
      choice: { type: 'string', enum: ['a', 'b'] },
      email: { type: 'string', format: 'email' },
      colors: { type: 'array', items: { type: 'string', enum: ['red', 'green'] } },
    },
    required: ['name', 'color', 'choice', 'email', 'colors'],
  });
});

test('formSchemaOf keeps an optional enum a plain string enum (no null in type or enum)', () => {
  class Pick {
    @IsOptional() @IsIn(['a', 'b']) letter?: string;
    @IsOptional() @IsEnum(Color) color?: Color;
  }
  assert.deepEqual(formSchemaOf(Pick), {
    type: 'object',
    properties: {
      letter: { type: 'string', enum: ['a', 'b'] },
      color: { type: 'string', enum: ['red', 'green'] },
    },
  });
});

test('formSchemaOf refuses what a form cannot ask, naming the class and property', () => {
  class Address {
    @IsString() street!: string;
  }
  class WithNested {
    @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
  }
  class WithUuid {
    @IsUUID() id!: string;
  }
  enum Level {
    Low = 1,
    High = 2,
  }
  class WithNumericEnum {
    @IsEnum(Level) level!: Level;
  }
  assert.throws(() => formSchemaOf(WithNested), {
    message:
      'formSchemaOf(WithNested): property "address" cannot be a form field: elicitation forms hold only strings, numbers, integers, booleans and string enums',
  });
  assert.throws(() => formSchemaOf(WithUuid), {
    message:
      'formSchemaOf(WithUuid): property "id" has format "uuid", which elicitation forms cannot state (only email, uri, date, date-time)',
  });
  assert.throws(() => formSchemaOf(WithNumericEnum), {
    message:
      'formSchemaOf(WithNumericEnum): property "level" cannot be a form field: elicitation forms hold only strings, numbers, integers, booleans and string enums',
  });
});

test('a form built with formSchemaOf is sent as it is and its answers are validated against it', async () => {
  const schema = formSchemaOf(signupForm());
  const signup: ContractTool = {
    name: 'signup',
    description: 'signs up',
    execute: async (_args, ctx) => JSON.stringify(await ctx.elicit({ message: 'Sign up', schema })),
  };
  const answers = [
    { name: 'Ada', subscribe: false, color: 'red', choice: 'a', email: 'ada@example.com', colors: ['green'] },
    { name: 'Ada', color: 'blue', choice: 'a', email: 'not-an-email', colors: [] },
  ];
  const seen: unknown[] = [];
  const { client, close } = await serve([signup], { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    seen.push(request.params);
    return { action: 'accept', content: answers[seen.length - 1]! };
  });
  try {
    assert.deepEqual(await client.callTool({ name: 'signup' }), {
      content: [{ type: 'text', text: JSON.stringify({ action: 'accept', content: answers[0] }) }],
    });
    assert.deepEqual(await client.callTool({ name: 'signup' }), {
      content: [
        {
          type: 'text',
          text: 'elicitation answer does not match the requested schema: /color: must be one of "red", "green"; /email: must match format "email"',
        },
      ],
      isError: true,
    });
    const sent = { mode: 'form', message: 'Sign up', requestedSchema: schema };
    assert.deepEqual(seen, [sent, sent]);
  } finally {
    await close();
  }
});
