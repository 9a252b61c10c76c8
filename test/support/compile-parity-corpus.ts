import { Type } from 'class-transformer';
import {
  ArrayContains,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotContains,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDivisibleBy,
  IsEnum,
  IsIn,
  IsEmail,
  IsInt,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNotIn,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotEquals,
  ValidateNested,
} from 'class-validator';

/**
 * Realistic argument classes for the parity corpus: the compiled pipeline and class-validator
 * (`plainToInstance` + `validate` with whitelist and forbidNonWhitelisted) must agree on them.
 */

export enum Role {
  Admin = 'admin',
  User = 'user',
}

export enum Level {
  Low = 1,
  High = 2,
}

export class CreateUser {
  @IsString() @Length(1, 40) name!: string;
  @IsOptional() @IsInt() @Min(0) @Max(150) age?: number;
  @IsEnum(Role) role!: Role;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsArray() @ArrayMaxSize(3) @IsString({ each: true }) @MaxLength(10, { each: true }) tags?: string[];
  @IsBoolean() active!: boolean;
  @IsOptional() @IsUUID('4') id?: string;
}

export class Page {
  @IsInt() @Min(1) number!: number;
  @IsOptional() @IsInt() @IsPositive() @Max(100) size?: number;
}

export class Filter {
  @IsIn(['name', 'date']) field!: 'name' | 'date';
  @IsString() @IsNotEmpty() value!: string;
}

export class Search {
  @IsString() @MinLength(1) @Matches(/^[a-z ]+$/) query!: string;
  @ValidateNested() @Type(() => Page) page!: Page;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => Filter) filters?: Filter[];
  @IsOptional() @IsNumber() @Min(0) @Max(1) score?: number;
}

export class Schedule {
  @IsISO8601() when!: string;
  @IsInt() @IsDivisibleBy(5) minutes!: number;
  @IsArray() @ArrayNotEmpty() @ArrayUnique() @IsInt({ each: true }) codes!: number[];
}

export class Tune {
  @Equals('v1') version!: 'v1';
  @IsString() @IsNotIn(['root', 'admin']) owner!: string;
  @IsString() @NotEquals('default') profile!: string;
  @IsNumber() @IsNegative() offset!: number;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayContains(['base'])
  @ArrayNotContains(['legacy'])
  @IsString({ each: true })
  layers!: string[];
}

export class Point {
  @IsInt() x!: number;
  @IsInt() y!: number;
}

export class Contact {
  @IsEmail() email!: string;
  @IsOptional() @IsUrl() homepage?: string;
  @IsOptional() @IsString({ each: true }) aliases?: string[];
  @IsOptional() @IsString() @MaxLength(1) mark?: string;
  @IsOptional() @ArrayUnique() @ValidateNested({ each: true }) @Type(() => Point) points?: Point[];
}

/** One input of the corpus, with the verdict the compiled pipeline must give. */
export interface ParityCase {
  readonly dto: 'CreateUser' | 'Search' | 'Schedule' | 'Tune' | 'Contact';
  readonly label: string;
  readonly input: unknown;
  readonly ours: 'valid' | 'invalid';
  /** Set when class-validator is known to answer otherwise: the reason, with its source. */
  readonly knownDifference?: string;
}

const user = { name: 'Ada', role: 'admin', active: true };
const search = { query: 'red shoes', page: { number: 1 } };
const schedule = { when: '2026-11-30T09:00:00Z', minutes: 15, codes: [1, 2] };

const tune = { version: 'v1', owner: 'ada', profile: 'fast', offset: -1.5, layers: ['base', 'extra'] };

const contact = { email: 'ada@example.com' };

export const DTOS = { CreateUser, Search, Schedule, Tune, Contact } as const;

export const CORPUS: readonly ParityCase[] = [
  // CreateUser: valid
  { dto: 'CreateUser', label: 'minimal', input: user, ours: 'valid' },
  {
    dto: 'CreateUser',
    label: 'every field',
    input: { ...user, age: 36, level: 2, tags: ['a', 'b'], id: '3b241101-e2bb-4255-8caf-4136c566a962' },
    ours: 'valid',
  },
  { dto: 'CreateUser', label: 'age 0 and 150', input: { ...user, age: 150 }, ours: 'valid' },
  { dto: 'CreateUser', label: 'user role', input: { ...user, role: 'user' }, ours: 'valid' },
  { dto: 'CreateUser', label: 'empty tags', input: { ...user, tags: [] }, ours: 'valid' },
  { dto: 'CreateUser', label: 'null optional age', input: { ...user, age: null }, ours: 'valid' },
  { dto: 'CreateUser', label: 'null optional tags and id', input: { ...user, tags: null, id: null }, ours: 'valid' },
  { dto: 'CreateUser', label: 'name of 40 characters', input: { ...user, name: 'x'.repeat(40) }, ours: 'valid' },
  { dto: 'CreateUser', label: 'inactive', input: { ...user, active: false }, ours: 'valid' },
  // CreateUser: invalid
  { dto: 'CreateUser', label: 'empty object', input: {}, ours: 'invalid' },
  { dto: 'CreateUser', label: 'name missing', input: { role: 'admin', active: true }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'empty name', input: { ...user, name: '' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'name of 41 characters', input: { ...user, name: 'x'.repeat(41) }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'name a number', input: { ...user, name: 5 }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'null required name', input: { ...user, name: null }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'age negative', input: { ...user, age: -1 }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'age too high', input: { ...user, age: 151 }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'age fractional', input: { ...user, age: 3.5 }, ours: 'invalid' },
  {
    dto: 'CreateUser',
    label: 'age as a string (no implicit conversion)',
    input: { ...user, age: '36' },
    ours: 'invalid',
  },
  { dto: 'CreateUser', label: 'role unknown', input: { ...user, role: 'root' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'role by member name', input: { ...user, role: 'Admin' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'level out of range', input: { ...user, level: 3 }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'level as a numeric string', input: { ...user, level: '1' }, ours: 'invalid' },
  {
    dto: 'CreateUser',
    label: 'numeric enum by member name',
    input: { ...user, level: 'Low' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 1: class-validator @IsEnum on a numeric enum also accepts the member names, because TypeScript adds reverse mappings (class-validator issue #1060, fix PR #2685 open); the schema lists only the values',
  },
  { dto: 'CreateUser', label: 'too many tags', input: { ...user, tags: ['a', 'b', 'c', 'd'] }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'tag too long', input: { ...user, tags: ['x'.repeat(11)] }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'tag not a string', input: { ...user, tags: ['a', 1] }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'tags a string', input: { ...user, tags: 'a' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'active as a string', input: { ...user, active: 'true' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'active as 1', input: { ...user, active: 1 }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'id not a UUID', input: { ...user, id: 'not-a-uuid' }, ours: 'invalid' },
  { dto: 'CreateUser', label: 'unknown key', input: { ...user, admin: true }, ours: 'invalid' },
  {
    dto: 'CreateUser',
    label: 'own __proto__ key from JSON.parse',
    input: JSON.parse('{"name":"Ada","role":"admin","active":true,"__proto__":{"isAdmin":true}}'),
    ours: 'invalid',
    knownDifference:
      'plainToInstance skips the keys __proto__ and constructor (TransformOperationExecutor), so whitelist never sees them and class-validator passes; the schema refuses every unknown key, these included',
  },
  {
    dto: 'CreateUser',
    label: 'constructor key',
    input: JSON.parse('{"name":"Ada","role":"admin","active":true,"constructor":{"prototype":{}}}'),
    ours: 'invalid',
    knownDifference:
      'plainToInstance skips the keys __proto__ and constructor, so whitelist never sees them and class-validator passes; the schema refuses every unknown key, these included',
  },
  // Search: valid
  { dto: 'Search', label: 'minimal', input: search, ours: 'valid' },
  {
    dto: 'Search',
    label: 'page size and score',
    input: { ...search, page: { number: 2, size: 100 }, score: 0.5 },
    ours: 'valid',
  },
  { dto: 'Search', label: 'score bounds', input: { ...search, score: 1 }, ours: 'valid' },
  {
    dto: 'Search',
    label: 'filters',
    input: {
      ...search,
      filters: [
        { field: 'name', value: 'x' },
        { field: 'date', value: '2026' },
      ],
    },
    ours: 'valid',
  },
  { dto: 'Search', label: 'empty filters', input: { ...search, filters: [] }, ours: 'valid' },
  {
    dto: 'Search',
    label: 'null optional nested size',
    input: { ...search, page: { number: 1, size: null } },
    ours: 'valid',
  },
  { dto: 'Search', label: 'null filters and score', input: { ...search, filters: null, score: null }, ours: 'valid' },
  // Search: invalid
  { dto: 'Search', label: 'query with capitals', input: { ...search, query: 'Red' }, ours: 'invalid' },
  { dto: 'Search', label: 'empty query', input: { ...search, query: '' }, ours: 'invalid' },
  {
    dto: 'Search',
    label: 'page missing',
    input: { query: 'x' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 5: class-validator skips @ValidateNested on an undefined value, so a nested object without @IsDefined is silently optional; toolwright makes every property without @IsOptional required',
  },
  { dto: 'Search', label: 'page null', input: { ...search, page: null }, ours: 'invalid' },
  { dto: 'Search', label: 'page a number', input: { ...search, page: 1 }, ours: 'invalid' },
  { dto: 'Search', label: 'page number 0', input: { ...search, page: { number: 0 } }, ours: 'invalid' },
  { dto: 'Search', label: 'page size 0', input: { ...search, page: { number: 1, size: 0 } }, ours: 'invalid' },
  { dto: 'Search', label: 'page size 101', input: { ...search, page: { number: 1, size: 101 } }, ours: 'invalid' },
  {
    dto: 'Search',
    label: 'unknown key in page',
    input: { ...search, page: { number: 1, offset: 3 } },
    ours: 'invalid',
  },
  {
    dto: 'Search',
    label: 'filter field unknown',
    input: { ...search, filters: [{ field: 'size', value: 'x' }] },
    ours: 'invalid',
  },
  {
    dto: 'Search',
    label: 'filter value empty',
    input: { ...search, filters: [{ field: 'name', value: '' }] },
    ours: 'invalid',
  },
  { dto: 'Search', label: 'filter missing value', input: { ...search, filters: [{ field: 'name' }] }, ours: 'invalid' },
  {
    dto: 'Search',
    label: 'filters an object',
    input: { ...search, filters: { field: 'name', value: 'x' } },
    ours: 'invalid',
  },
  { dto: 'Search', label: 'filter a string', input: { ...search, filters: ['name'] }, ours: 'invalid' },
  { dto: 'Search', label: 'score above 1', input: { ...search, score: 1.5 }, ours: 'invalid' },
  { dto: 'Search', label: 'score a string', input: { ...search, score: '0.5' }, ours: 'invalid' },
  {
    dto: 'Search',
    label: 'page given as an array of pages',
    input: { ...search, page: [{ number: 1 }] },
    ours: 'invalid',
    knownDifference:
      '@ValidateNested accepts an array in place of an object and validates each item (add @IsObject to refuse it in class-validator); the schema says object',
  },
  // Schedule: valid
  { dto: 'Schedule', label: 'minimal', input: schedule, ours: 'valid' },
  { dto: 'Schedule', label: 'minutes 0', input: { ...schedule, minutes: 0 }, ours: 'valid' },
  { dto: 'Schedule', label: 'offset time', input: { ...schedule, when: '2026-11-30T09:00:00+01:00' }, ours: 'valid' },
  { dto: 'Schedule', label: 'one code', input: { ...schedule, codes: [7] }, ours: 'valid' },
  {
    dto: 'Schedule',
    label: 'date only',
    input: { ...schedule, when: '2026-11-30' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 8: the generator maps @IsISO8601() to format "date-time" (RFC 3339: a date and a time), while class-validator accepts any ISO 8601 string, a date alone included; the schema is stricter',
  },
  {
    dto: 'Schedule',
    label: 'fractional seconds',
    input: { ...schedule, when: '2026-11-30T09:00:00.123Z' },
    ours: 'valid',
  },
  { dto: 'Schedule', label: 'negative minutes divisible by 5', input: { ...schedule, minutes: -10 }, ours: 'valid' },
  // Schedule: invalid
  { dto: 'Schedule', label: 'when not a date', input: { ...schedule, when: 'tomorrow' }, ours: 'invalid' },
  { dto: 'Schedule', label: 'when a number', input: { ...schedule, when: 20261130 }, ours: 'invalid' },
  { dto: 'Schedule', label: 'month 13', input: { ...schedule, when: '2026-13-01T00:00:00Z' }, ours: 'invalid' },
  { dto: 'Schedule', label: 'minutes a string', input: { ...schedule, minutes: '15' }, ours: 'invalid' },
  { dto: 'Schedule', label: 'minutes 7', input: { ...schedule, minutes: 7 }, ours: 'invalid' },
  { dto: 'Schedule', label: 'codes empty', input: { ...schedule, codes: [] }, ours: 'invalid' },
  { dto: 'Schedule', label: 'codes repeated', input: { ...schedule, codes: [1, 1] }, ours: 'invalid' },
  { dto: 'Schedule', label: 'codes fractional', input: { ...schedule, codes: [1.5] }, ours: 'invalid' },
  { dto: 'Schedule', label: 'codes missing', input: { when: schedule.when, minutes: 5 }, ours: 'invalid' },
  { dto: 'Schedule', label: 'codes null (not optional)', input: { ...schedule, codes: null }, ours: 'invalid' },
  // Tune: valid
  { dto: 'Tune', label: 'minimal', input: tune, ours: 'valid' },
  { dto: 'Tune', label: 'only the base layer', input: { ...tune, layers: ['base'] }, ours: 'valid' },
  { dto: 'Tune', label: 'integer offset', input: { ...tune, offset: -3 }, ours: 'valid' },
  { dto: 'Tune', label: 'owner close to a forbidden one', input: { ...tune, owner: 'roots' }, ours: 'valid' },
  // Tune: invalid
  { dto: 'Tune', label: 'wrong version', input: { ...tune, version: 'v2' }, ours: 'invalid' },
  { dto: 'Tune', label: 'forbidden owner', input: { ...tune, owner: 'root' }, ours: 'invalid' },
  { dto: 'Tune', label: 'default profile', input: { ...tune, profile: 'default' }, ours: 'invalid' },
  { dto: 'Tune', label: 'offset zero', input: { ...tune, offset: 0 }, ours: 'invalid' },
  { dto: 'Tune', label: 'offset positive', input: { ...tune, offset: 2 }, ours: 'invalid' },
  { dto: 'Tune', label: 'base layer missing', input: { ...tune, layers: ['extra'] }, ours: 'invalid' },
  { dto: 'Tune', label: 'legacy layer present', input: { ...tune, layers: ['base', 'legacy'] }, ours: 'invalid' },
  { dto: 'Tune', label: 'no layers', input: { ...tune, layers: [] }, ours: 'invalid' },
  {
    dto: 'Tune',
    label: 'version missing',
    input: { owner: 'ada', profile: 'fast', offset: -1, layers: ['base'] },
    ours: 'invalid',
  },
  // Contact: format checks (ajv format, then class-validator as a residual check) and MAPPING.md's known differences
  { dto: 'Contact', label: 'minimal', input: contact, ours: 'valid' },
  {
    dto: 'Contact',
    label: 'homepage, aliases, mark and points',
    input: {
      ...contact,
      homepage: 'https://example.com/ada',
      aliases: ['a'],
      mark: 'x',
      points: [
        { x: 1, y: 2 },
        { x: 2, y: 1 },
      ],
    },
    ours: 'valid',
  },
  { dto: 'Contact', label: 'email without a domain', input: { email: 'ada' }, ours: 'invalid' },
  {
    dto: 'Contact',
    label: 'email ajv accepts and @IsEmail refuses (residual)',
    input: { email: 'a@b.c' },
    ours: 'invalid',
  },
  {
    dto: 'Contact',
    label: 'mailto URL ajv accepts and @IsUrl refuses (residual)',
    input: { ...contact, homepage: 'mailto:ada@example.com' },
    ours: 'invalid',
  },
  { dto: 'Contact', label: 'alias not a string', input: { ...contact, aliases: [1] }, ours: 'invalid' },
  {
    dto: 'Contact',
    label: 'email with a non-ASCII local part',
    input: { email: 'ä@example.com' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 10: ajv-formats "email" refuses non-ASCII local parts that @IsEmail() accepts',
  },
  {
    dto: 'Contact',
    label: 'URL without a scheme',
    input: { ...contact, homepage: 'example.com' },
    ours: 'invalid',
    knownDifference: 'MAPPING.md known difference 9: ajv-formats "uri" needs a scheme; @IsUrl() accepts "example.com"',
  },
  {
    dto: 'Contact',
    label: 'each: true given a lone string',
    input: { ...contact, aliases: 'ada' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 2: class-validator applies an each: true rule to a lone non-array value; the schema says array',
  },
  {
    dto: 'Contact',
    label: 'an emoji with a variation selector under @MaxLength(1)',
    input: { ...contact, mark: '\u2764\ufe0f' },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 12: ajv counts code points (2), validator.js isLength leaves out the variation selector U+FE0F (1)',
  },
  {
    dto: 'Contact',
    label: 'two equal points under @ArrayUnique()',
    input: {
      ...contact,
      points: [
        { x: 1, y: 1 },
        { x: 1, y: 1 },
      ],
    },
    ours: 'invalid',
    knownDifference:
      'MAPPING.md known difference 13: uniqueItems compares deeply; @ArrayUnique() compares with ===, so two equal objects pass it',
  },
];
