import type { ContractIssue } from '../../contract/index.js';
import { kindOf, errorText } from '../../util/describe.js';

/**
 * The issues the generator reports. Each names the class, the property, what is wrong and the
 * fix, in one sentence a developer can act on without reading toolwright's source.
 */

export type SchemaRole = 'arguments' | 'result';

const TYPE_DECORATOR_FIX =
  'add a class-validator type decorator such as @IsString(), @IsInt(), @IsObject() or @ValidateNested() with @Type(() => Class)';

const OBJECT_FIX =
  'for a union write @UnionOf([A, B]) (or @UnionOf({ discriminator, cases }) for classes told apart by a property), for a map @MapOf(ValueType), for a nested class @ValidateNested() with @Type(() => Class), for any JSON value @Allow(); otherwise add a class-validator type decorator such as @IsString()';

function issue(code: ContractIssue['code'], className: string, member: string, message: string): ContractIssue {
  return { code, className, member, message: `${className}.${member}: ${message}` };
}

/** Why `design:type` did not give a type, in words. */
export type DesignTypeGap =
  | { readonly kind: 'object' }
  | { readonly kind: 'absent' }
  | { readonly kind: 'unsupported'; readonly name: string }
  | { readonly kind: 'enum-object' };

export function unknownPropertyType(className: string, member: string, gap: DesignTypeGap): ContractIssue {
  switch (gap.kind) {
    case 'object':
      return issue(
        'unknown-property-type',
        className,
        member,
        `the type of this property cannot be known (design:type is Object: a union, a map, an interface or any); ${OBJECT_FIX}`,
      );
    case 'absent':
      return issue(
        'unknown-property-type',
        className,
        member,
        `the type of this property cannot be known (no design:type was recorded: emitDecoratorMetadata is off, reflect-metadata was imported after this class, or the compiler (esbuild, tsx) emits none); ${TYPE_DECORATOR_FIX}`,
      );
    case 'unsupported':
      if (gap.name === 'Map')
        return issue(
          'unknown-property-type',
          className,
          member,
          'a Map travels as a JSON object, but its value type is not recorded; add @MapOf(ValueType), for example @MapOf(String) or @MapOf(() => Item)',
        );
      return issue(
        'unknown-property-type',
        className,
        member,
        `the type of this property cannot be known (design:type is ${gap.name}, which JSON cannot carry); ${TYPE_DECORATOR_FIX}`,
      );
    case 'enum-object':
      return issue(
        'unknown-property-type',
        className,
        member,
        'the type of this property cannot be known (design:type is an enum object, as swc and oxc record for enums); add @IsEnum(TheEnum)',
      );
  }
}

export function nestedClassUnknown(className: string, member: string): ContractIssue {
  return issue(
    'unknown-property-type',
    className,
    member,
    '@ValidateNested() cannot know the class of this property (design:type is not a class); add @Type(() => Class) from class-transformer',
  );
}

export function typeFunctionThrew(className: string, member: string, error: unknown): ContractIssue {
  return issue(
    'unknown-property-type',
    className,
    member,
    `the @Type() function threw when called without arguments (${errorText(error)}); use @Type(() => Class)`,
  );
}

export function arrayItemType(className: string, member: string): ContractIssue {
  return issue(
    'array-item-type',
    className,
    member,
    'the items of this array have no known type; add @IsString({ each: true }) (or another type decorator with { each: true }), or @ValidateNested({ each: true }) with @Type(() => Item)',
  );
}

export function reflectMetadataMissing(className: string, member: string): ContractIssue {
  return issue(
    'reflect-metadata-missing',
    className,
    member,
    "Reflect.getMetadata is missing, so the design:type of this property cannot be read; import 'reflect-metadata' (or toolwright) before your tool classes",
  );
}

export function undecoratedProperty(className: string, member: string, role: SchemaRole): ContractIssue {
  const effect =
    role === 'result'
      ? 'it is not in the output schema, so a result holding it is rejected'
      : 'it is not in the schema, so a client can never set it';
  return issue(
    'unknown-property-type',
    className,
    member,
    `this property has no decorator and ${effect}; add a class-validator decorator such as @IsString() or @IsOptional(), or @Description(), or remove the property`,
  );
}

export function contradictoryTypes(className: string, member: string, decorators: readonly string[]): ContractIssue {
  return issue(
    'invalid-schema',
    className,
    member,
    `${decorators.join(' and ')} contradict each other, so no value can pass; remove one of them`,
  );
}

export function noAllowedValue(className: string, member: string, decorators: readonly string[]): ContractIssue {
  const listed = decorators.join(' and ');
  const why =
    decorators.length > 1
      ? 'have no JSON value in common'
      : 'lists no JSON value (its list is empty, or holds only objects or NaN, which never equal a sent value)';
  return issue(
    'invalid-schema',
    className,
    member,
    `${listed} ${why}, so no value can pass; list the values a client may send`,
  );
}

export function fieldValueNotJson(className: string, member: string, option: 'default' | 'examples'): ContractIssue {
  const what = option === 'default' ? 'the default' : 'every example';
  return issue(
    'invalid-schema',
    className,
    member,
    `@Field({ ${option} }): ${what} must be plain JSON (null, a boolean, a finite number, a string, or arrays and plain objects of those); use the value a client would send`,
  );
}

export function notAClass(value: unknown, role: SchemaRole): ContractIssue {
  const got = typeof value === 'function' ? value.name || 'an anonymous function' : kindOf(value);
  const which = role === 'result' ? 'result' : 'arguments';
  const className = typeof value === 'function' ? value.name : '';
  return {
    code: 'invalid-args-class',
    className,
    message: `the ${which} class must be a class whose properties carry class-validator decorators, got ${got}`,
  };
}

export function shapeTypeProblem(className: string, member: string, decorator: string, problem: string): ContractIssue {
  return issue(
    'unknown-property-type',
    className,
    member,
    `${decorator}: ${problem}; name a class, String, Number, Boolean or Date, or () => Class`,
  );
}
