import type { Json } from '../../contract/index.js';
import { isJsonPrimitive, jsonTypeOf } from './json-values.js';
import { typeSet, type JsonType } from './type-set.js';
import type { BoundKeyword, ValueRules } from './value-rules.js';

/** What a mapping sees of one class-validator rule. */
export interface MappingContext {
  /** The rules of the value the decorator checks (the items for `each: true`). */
  readonly rules: ValueRules;
  /** The rule's `constraints` array as class-validator stored it (never `undefined`). */
  readonly constraints: readonly unknown[];
  /** Hands (part of) the rule to class-validator at run time: it is listed in `residual`. */
  residual(): void;
}

/** How one class-validator constraint (by its `name`) becomes JSON Schema. */
export interface ConstraintMapping {
  /** The decorator as a user writes it, for messages. */
  readonly decorator: string;
  apply(context: MappingContext): void;
}

const STRING = typeSet('string');
const NUMBER = typeSet('number');
const ARRAY = typeSet('array');

function isEmptyOptions(options: unknown): boolean {
  return (
    options === undefined || options === null || (typeof options === 'object' && Object.keys(options).length === 0)
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** Sets a length or size bound when it is a whole non-negative number; otherwise class-validator checks it. */
function countBound(context: MappingContext, keyword: BoundKeyword, value: unknown): void {
  if (value === undefined || value === null) return;
  if (isCount(value)) context.rules.bound(keyword, value);
  else context.residual();
}

/** Sets a numeric bound when it is a finite number; otherwise class-validator checks it. */
function numberBound(context: MappingContext, keyword: BoundKeyword, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) context.rules.bound(keyword, value);
  else context.residual();
}

/** The types of the given primitives (`integer` for whole numbers). */
function typesOfValues(values: readonly (null | boolean | number | string)[]): JsonType[] {
  return values.map(jsonTypeOf);
}

/**
 * The values of a TypeScript enum object: the reverse-mapping keys of numeric enums ("0", "1",
 * ...) are dropped, as class-validator's own `IsEnum` message does.
 */
export function enumValuesOf(entity: unknown): unknown[] {
  if (typeof entity !== 'object' || entity === null) return [];
  return Object.entries(entity)
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
}

function restrictToPrimitives(context: MappingContext, values: unknown, decorator: string): void {
  const listed = Array.isArray(values) ? values : [];
  // class-validator compares with ===: an object or array in the list can never equal parsed
  // JSON, and NaN equals nothing, so only JSON primitives can ever be accepted.
  const primitives = listed.filter(isJsonPrimitive);
  context.rules.restrictTo(primitives, decorator);
  if (primitives.length > 0) context.rules.requireTypes(typeSet(...typesOfValues(primitives)), decorator);
}

/** Flags `pattern` needs that JSON Schema cannot express (it has no flags; ajv adds `u`). */
const HARMLESS_FLAGS = new Set(['g', 'u', 'd']);

/**
 * The JSON Schema `pattern` for `@Matches(pattern, modifiers)`, or `undefined` when it cannot be
 * expressed: flags such as `i`, `m`, `s`, `y`, `v`, or a source that is not valid in the
 * Unicode mode ajv compiles patterns in (`/[a-z\_]/` is).
 */
export function patternOf(pattern: unknown, modifiers: unknown): string | undefined {
  let source: string;
  if (pattern instanceof RegExp) {
    if ([...pattern.flags].some((flag) => !HARMLESS_FLAGS.has(flag))) return undefined;
    source = pattern.source;
  } else if (typeof pattern === 'string') {
    if (modifiers !== undefined && modifiers !== '' && [...String(modifiers)].some((flag) => !HARMLESS_FLAGS.has(flag)))
      return undefined;
    source = pattern;
  } else {
    return undefined;
  }
  try {
    new RegExp(source, 'u');
  } catch {
    return undefined;
  }
  return source;
}

/**
 * A string check with a JSON Schema format close to it. The format tells the model what to send
 * and lets ajv reject most bad values first. With `residual`, class-validator still runs the
 * validator itself, because ajv-formats accepts values validator.js rejects (`a@b.c` as an
 * email, `file:///etc/passwd` or `http://localhost` as a URL, `urn:uuid:...`). With
 * `whenNoOptions`, a decorator given options (`allow_display_name`, `require_tld: false`, ...)
 * gets no format at all: the options may accept values the format would refuse.
 */
const stringFormat = (
  decorator: string,
  format: string,
  how: { readonly residual: boolean; readonly whenNoOptions?: boolean },
): ConstraintMapping => ({
  decorator,
  apply(context) {
    context.rules.requireTypes(STRING, decorator);
    if (how.whenNoOptions !== true || isEmptyOptions(context.constraints[0])) context.rules.addFormat(format);
    if (how.residual) context.residual();
  },
});

const typeOnly = (decorator: string, ...types: JsonType[]): ConstraintMapping => {
  // Type sets are never changed once made: one per mapping serves every property.
  const required = typeSet(...types);
  return {
    decorator,
    apply(context) {
      context.rules.requireTypes(required, decorator);
    },
  };
};

/** The class-validator constraints the schema expresses, by `ValidationMetadata.name`. */
export const CONSTRAINT_MAPPINGS: ReadonlyMap<string, ConstraintMapping> = new Map<string, ConstraintMapping>([
  ['isString', typeOnly('@IsString()', 'string')],
  ['isInt', typeOnly('@IsInt()', 'integer')],
  ['isBoolean', typeOnly('@IsBoolean()', 'boolean')],
  ['isArray', typeOnly('@IsArray()', 'array')],
  ['isObject', typeOnly('@IsObject()', 'object')],
  [
    'isNumber',
    {
      decorator: '@IsNumber()',
      apply(context) {
        context.rules.requireTypes(NUMBER, '@IsNumber()');
        // allowNaN and allowInfinity cannot matter (JSON has neither); maxDecimalPlaces can.
        const options = context.constraints[0] as { maxDecimalPlaces?: unknown } | undefined;
        if (options !== undefined && options !== null && options.maxDecimalPlaces !== undefined) context.residual();
      },
    },
  ],
  [
    'isEnum',
    {
      decorator: '@IsEnum()',
      apply(context) {
        const values = Array.isArray(context.constraints[1])
          ? context.constraints[1]
          : enumValuesOf(context.constraints[0]);
        restrictToPrimitives(context, values, '@IsEnum()');
      },
    },
  ],
  [
    'isIn',
    {
      decorator: '@IsIn()',
      apply(context) {
        restrictToPrimitives(context, context.constraints[0], '@IsIn()');
      },
    },
  ],
  [
    'equals',
    {
      decorator: '@Equals()',
      apply(context) {
        const value = context.constraints[0];
        if (!isJsonPrimitive(value)) {
          context.residual();
          return;
        }
        context.rules.constValue = { value };
        context.rules.requireTypes(typeSet(jsonTypeOf(value)), '@Equals()');
      },
    },
  ],
  [
    'notEquals',
    {
      decorator: '@NotEquals()',
      apply(context) {
        const value = context.constraints[0];
        if (isJsonPrimitive(value)) context.rules.forbid([value]);
      },
    },
  ],
  [
    'isNotIn',
    {
      decorator: '@IsNotIn()',
      apply(context) {
        const values = context.constraints[0];
        if (Array.isArray(values)) context.rules.forbid(values.filter(isJsonPrimitive) as Json[]);
      },
    },
  ],
  [
    'isNotEmpty',
    {
      decorator: '@IsNotEmpty()',
      apply(context) {
        context.rules.notEmpty = true;
      },
    },
  ],
  [
    'min',
    {
      decorator: '@Min()',
      apply: (context) => {
        context.rules.requireTypes(NUMBER, '@Min()');
        numberBound(context, 'minimum', context.constraints[0]);
      },
    },
  ],
  [
    'max',
    {
      decorator: '@Max()',
      apply: (context) => {
        context.rules.requireTypes(NUMBER, '@Max()');
        numberBound(context, 'maximum', context.constraints[0]);
      },
    },
  ],
  [
    'isPositive',
    {
      decorator: '@IsPositive()',
      apply: (context) => {
        context.rules.requireTypes(NUMBER, '@IsPositive()');
        context.rules.bound('exclusiveMinimum', 0);
      },
    },
  ],
  [
    'isNegative',
    {
      decorator: '@IsNegative()',
      apply: (context) => {
        context.rules.requireTypes(NUMBER, '@IsNegative()');
        context.rules.bound('exclusiveMaximum', 0);
      },
    },
  ],
  [
    'isLength',
    {
      decorator: '@Length()',
      apply(context) {
        context.rules.requireTypes(STRING, '@Length()');
        countBound(context, 'minLength', context.constraints[0]);
        countBound(context, 'maxLength', context.constraints[1]);
      },
    },
  ],
  [
    'minLength',
    {
      decorator: '@MinLength()',
      apply: (context) => {
        context.rules.requireTypes(STRING, '@MinLength()');
        countBound(context, 'minLength', context.constraints[0]);
      },
    },
  ],
  [
    'maxLength',
    {
      decorator: '@MaxLength()',
      apply: (context) => {
        context.rules.requireTypes(STRING, '@MaxLength()');
        countBound(context, 'maxLength', context.constraints[0]);
      },
    },
  ],
  [
    'matches',
    {
      decorator: '@Matches()',
      apply(context) {
        context.rules.requireTypes(STRING, '@Matches()');
        const pattern = patternOf(context.constraints[0], context.constraints[1]);
        if (pattern === undefined) context.residual();
        else context.rules.addPattern(pattern);
      },
    },
  ],
  ['isEmail', stringFormat('@IsEmail()', 'email', { residual: true, whenNoOptions: true })],
  ['isUrl', stringFormat('@IsUrl()', 'uri', { residual: true, whenNoOptions: true })],
  // Every version is a UUID to ajv; the version (and the variant digit, which ajv does not check
  // either) is left to class-validator.
  ['isUuid', stringFormat('@IsUUID()', 'uuid', { residual: true })],
  ['isDateString', stringFormat('@IsDateString()', 'date-time', { residual: false })],
  ['isIso8601', stringFormat('@IsISO8601()', 'date-time', { residual: false })],
  // JSON has no Date: the argument is an ISO date-time string that @Type(() => Date) turns into
  // a Date; class-validator then checks that it really is one.
  ['isDate', stringFormat('@IsDate()', 'date-time', { residual: true })],
  [
    'arrayMinSize',
    {
      decorator: '@ArrayMinSize()',
      apply: (context) => {
        context.rules.requireTypes(ARRAY, '@ArrayMinSize()');
        countBound(context, 'minItems', context.constraints[0]);
      },
    },
  ],
  [
    'arrayMaxSize',
    {
      decorator: '@ArrayMaxSize()',
      apply: (context) => {
        context.rules.requireTypes(ARRAY, '@ArrayMaxSize()');
        countBound(context, 'maxItems', context.constraints[0]);
      },
    },
  ],
  [
    'arrayNotEmpty',
    {
      decorator: '@ArrayNotEmpty()',
      apply: (context) => {
        context.rules.requireTypes(ARRAY, '@ArrayNotEmpty()');
        context.rules.bound('minItems', 1);
      },
    },
  ],
  [
    'arrayUnique',
    {
      decorator: '@ArrayUnique()',
      apply(context) {
        context.rules.requireTypes(ARRAY, '@ArrayUnique()');
        context.rules.uniqueItems = true;
        // An identifier function (ArrayUnique(o => o.id)) is invisible in the metadata, and
        // class-validator compares items with ===: it also runs at call time.
        context.residual();
      },
    },
  ],
  [
    'arrayContains',
    {
      decorator: '@ArrayContains()',
      apply: (context) => {
        context.rules.requireTypes(ARRAY, '@ArrayContains()');
        context.residual();
      },
    },
  ],
  [
    'arrayNotContains',
    {
      decorator: '@ArrayNotContains()',
      apply: (context) => {
        context.rules.requireTypes(ARRAY, '@ArrayNotContains()');
        context.residual();
      },
    },
  ],
  [
    'isDivisibleBy',
    {
      decorator: '@IsDivisibleBy()',
      apply: (context) => {
        context.rules.requireTypes(NUMBER, '@IsDivisibleBy()');
        context.residual();
      },
    },
  ],
  [
    'isNotEmptyObject',
    {
      decorator: '@IsNotEmptyObject()',
      apply: (context) => {
        context.rules.requireTypes(typeSet('object'), '@IsNotEmptyObject()');
        context.residual();
      },
    },
  ],
]);

/**
 * class-validator string validators the schema does not express: each checks
 * `typeof value === 'string'` first, so the schema says `"type": "string"` and the rest is
 * checked by class-validator at call time.
 */
const STRING_RESIDUALS = [
  'contains',
  'notContains',
  'isAlpha',
  'isAlphanumeric',
  'isAscii',
  'isBIC',
  'isBase32',
  'isBase58',
  'isBase64',
  'isBooleanString',
  'isBtcAddress',
  'isByteLength',
  'isCreditCard',
  'isCurrency',
  'isDataURI',
  'isDecimal',
  'isEAN',
  'isEthereumAddress',
  'isFqdn',
  'IsFirebasePushId',
  'isFullWidth',
  'isHSL',
  'isHalfWidth',
  'isHash',
  'isHexColor',
  'isHexadecimal',
  'isIBAN',
  'isIp',
  'isIsbn',
  'isIsin',
  'isISO31661Alpha2',
  'isISO31661Alpha3',
  'isISO31661Numeric',
  'isISRC',
  'isISSN',
  'isIdentityCard',
  'isJson',
  'isJwt',
  'isLocale',
  'isLowercase',
  'isMacAddress',
  'isMagnetURI',
  'isMilitaryTime',
  'isMimeType',
  'isMobilePhone',
  'isMongoId',
  'isMultibyte',
  'isNumberString',
  'isOctal',
  'isPassportNumber',
  'isPort',
  'isPostalCode',
  'isRFC3339',
  'isRgbColor',
  'isSemVer',
  'isStrongPassword',
  'isSurrogatePair',
  'isUppercase',
  'isVariableWidth',
  'isISO4217CurrencyCode',
  'isTaxId',
  'isISO6391',
];

for (const name of STRING_RESIDUALS) {
  const decorator = `@${name.charAt(0).toUpperCase()}${name.slice(1)}()`;
  (CONSTRAINT_MAPPINGS as Map<string, ConstraintMapping>).set(name, {
    decorator,
    apply(context) {
      context.rules.requireTypes(STRING, decorator);
      context.residual();
    },
  });
}
