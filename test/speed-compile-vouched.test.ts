/**
 * `compile` vouches for the argument and result schemas it generated of plain keywords only, so
 * `firstUseCompile` skips the `isPlainSchema` walk for them (issue 28, fifth round). The vouching
 * must never say more than the walk: every schema it vouches for is one `isPlainSchema` accepts,
 * schemas with `$defs` or `anyOf` are left to the walk, and a schema from anywhere else (the
 * public `generateSchema`, a hand-built tool) is checked exactly as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../src/index.js';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNotIn,
  IsOptional,
  IsString,
  IsUUID,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Field, MapOf, Tool, UnionOf, compile, type ContractTool } from '../src/index.js';
import { createArgumentsPipeline, generateSchema, type Class } from '../src/compiler/index.js';
import { isPlainSchema } from '../src/compiler/validation/plain-schema.js';
import { isVouchedSchema } from '../src/compiler/validation/vouched.js';

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

function toolOf(args: Class, result?: Class): ContractTool {
  @Tool({ name: 'probe', description: 'A probe', args, ...(result === undefined ? {} : { result }) })
  class Probe {
    execute(): string {
      return 'ok';
    }
  }
  return compile([Probe])[0]!;
}

test('a schema of plain keywords is vouched for, and isPlainSchema agrees with every one', () => {
  class Inner {
    @IsInt() @Min(0) @Max(9) level!: number;
  }
  class Args {
    @Field({ title: 'Mail', description: 'Where to write', examples: ['a@example.com'], deprecated: false })
    @IsEmail()
    mail!: string;
    @IsOptional() @IsUrl() site?: string;
    @IsUUID() id!: string;
    @IsOptional() @IsDateString() when?: string;
    @Matches(/^[a-z]+$/) @Matches('^.{2,}$') @MaxLength(20) slug!: string;
    @IsOptional() @IsEnum(Colour) colour?: Colour;
    @IsIn([1, 2, 3]) pick!: number;
    @IsNotIn(['x', 'y']) @IsNotEmpty() @IsString() other!: string;
    @IsInt({ each: true }) @ArrayMaxSize(4) counts!: number[];
    @ValidateNested() @Type(() => Inner) inner!: Inner;
    @IsOptional() @ValidateNested() @Type(() => Inner) maybe?: Inner;
    @MapOf(Number) weights!: Record<string, number>;
    @IsOptional() @IsInt() limit?: number = 10;
  }
  const tool = toolOf(Args, Inner);
  assert.equal(isVouchedSchema(tool.parameters!), true);
  assert.equal(isPlainSchema(tool.parameters!), true);
  assert.equal(isVouchedSchema(tool.outputSchema!), true);
  assert.equal(isPlainSchema(tool.outputSchema!), true);
});

test('a recursive class ($defs, $ref) and anyOf (@UnionOf, a discriminated @Type) are left to the walk', () => {
  class Node {
    @IsString() name!: string;
    @IsOptional() @ValidateNested({ each: true }) @Type(() => Node) children?: Node[];
  }
  class Tree {
    @ValidateNested() @Type(() => Node) root!: Node;
  }
  assert.equal(isVouchedSchema(toolOf(Tree).parameters!), false);

  class Either {
    @UnionOf([String, Number]) value!: string | number;
  }
  assert.equal(isVouchedSchema(toolOf(Either).parameters!), false);

  class Circle {
    @IsString() kind!: string;
    @IsInt() radius!: number;
  }
  class Square {
    @IsString() kind!: string;
    @IsInt() side!: number;
  }
  class Shape {}
  class Drawing {
    @ValidateNested()
    @Type(() => Shape, {
      discriminator: {
        property: 'kind',
        subTypes: [
          { name: 'circle', value: Circle },
          { name: 'square', value: Square },
        ],
      },
      keepDiscriminatorProperty: true,
    })
    shape!: Circle | Square;
  }
  assert.equal(isVouchedSchema(toolOf(Drawing).parameters!), false);
});

test("the public generateSchema's output is never vouched for: changed, it still fails at once", () => {
  class Args {
    @IsString() text!: string;
  }
  const { schema } = generateSchema(Args);
  assert.equal(isVouchedSchema(schema), false);
  (schema.properties as Record<string, unknown>).text = { $ref: '#/$defs/Missing' };
  assert.throws(() => createArgumentsPipeline({ schema, dto: Args }), /can't resolve reference/);
});
