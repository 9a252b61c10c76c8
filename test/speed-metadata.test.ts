/**
 * The schema generator reads a DTO's class-validator rules without class-validator's walk over
 * every known class (which made compiling n tools cost n squared): `validationMetadataOf` must
 * answer exactly what `getTargetValidationMetadatas(dto, '', true, false)` answers, in the same
 * order, for own, inherited and hidden rules. Runs in well under a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidationTypes as ClassValidatorTypes,
} from 'class-validator';
import { validationMetadataOf, ValidationTypes } from '../src/compiler/schema/sources.js';

const classValidatorsOwn = (dto: Function): unknown[] =>
  getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);

test('own rules, in the order class-validator recorded them', () => {
  class Args {
    @IsString() @MaxLength(5) text!: string;
    @IsOptional() @IsInt({ groups: ['g'] }) @Min(1) count?: number;
  }
  const rules = validationMetadataOf(Args);
  assert.equal(rules.length, 5);
  assert.deepEqual(rules, classValidatorsOwn(Args));
});

test('inherited rules over three generations, an own rule hiding the base rules of the same property and type', () => {
  class Base {
    @IsString() id!: string;
    @IsInt() @Max(10) size!: number;
  }
  class Middle extends Base {
    @IsInt() @Max(5) override size = 0;
    @IsOptional() @IsString() note?: string;
  }
  class Leaf extends Middle {
    @MaxLength(3) override note?: string = undefined;
  }
  class Bare extends Leaf {}
  for (const dto of [Base, Middle, Leaf, Bare])
    assert.deepEqual(validationMetadataOf(dto), classValidatorsOwn(dto), dto.name);
  // An own rule hides the base rules of the same property and class-validator `type` (Leaf's
  // note:maxLength hides Middle's note:isString: both are `customValidation`, while
  // note:isOptional is `conditionalValidation`); a class without own rules gets every
  // generation's, oldest class first.
  assert.deepEqual(
    validationMetadataOf(Leaf).map(
      (rule) => `${(rule.target as Function).name}.${rule.propertyName}:${rule.name ?? rule.type}`,
    ),
    [
      'Leaf.note:maxLength',
      'Base.id:isString',
      'Base.size:max',
      'Base.size:isInt',
      'Middle.size:max',
      'Middle.size:isInt',
      'Middle.note:isOptional',
    ],
  );
  assert.equal(validationMetadataOf(Bare).length, 8);
});

test("a base class decorated after its subclass keeps class-validator's order", () => {
  class Later {}
  class Sub extends Later {
    @IsString() a!: string;
  }
  class Subsub extends Sub {}
  IsInt()(Later.prototype, 'b');
  assert.deepEqual(validationMetadataOf(Subsub), classValidatorsOwn(Subsub));
  assert.deepEqual(
    validationMetadataOf(Subsub).map((rule) => rule.propertyName),
    ['a', 'b'],
  );
});

test("the rule types toolwright reads are class-validator's own", () => {
  assert.deepEqual(ValidationTypes, {
    CUSTOM_VALIDATION: ClassValidatorTypes.CUSTOM_VALIDATION,
    NESTED_VALIDATION: ClassValidatorTypes.NESTED_VALIDATION,
    PROMISE_VALIDATION: ClassValidatorTypes.PROMISE_VALIDATION,
    CONDITIONAL_VALIDATION: ClassValidatorTypes.CONDITIONAL_VALIDATION,
    WHITELIST: ClassValidatorTypes.WHITELIST,
    IS_DEFINED: ClassValidatorTypes.IS_DEFINED,
  });
});
