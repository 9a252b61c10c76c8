import type { ContractIssue, ContractIssueCode, JsonObject } from '../../contract/index.js';
import { errorText } from '../../util/describe.js';
import { generateSchema } from '../schema/index.js';
import { createArgumentsPipeline, DEFAULT_MAX_DEPTH, type SchemaValidator } from '../validation/index.js';
import { NO_ARGUMENTS_SCHEMA } from './compile.js';
import { frozenInPlace } from './info.js';
import { fromStrings, stringParamsOf, type StringParam } from './string-params.js';

/** What an arguments (or variables) class of a prompt or template compiles to. */
export interface StringArgs {
  /** One parameter per property of the class, in property order. */
  readonly params: readonly StringParam[];
  /** The class's JSON Schema (what the values are validated with). */
  readonly schema: JsonObject;
  /** Turns the client's strings into the class's values and validates them (see `FeatureEntry.parse`). */
  parse(
    raw: Readonly<Record<string, unknown>>,
  ): Promise<{ readonly value: object; readonly plain: Record<string, unknown> }>;
}

/** What compiling a class of string arguments needs. */
export interface StringArgsSource {
  readonly className: string;
  /** The arguments class, or `undefined` for none (a prompt without arguments). */
  readonly dto: Function | undefined;
  /** Whether array properties are allowed (template variables) or not (prompt arguments). */
  readonly lists: boolean;
  /** The issue code for a property a string cannot carry. */
  readonly code: Extract<ContractIssueCode, 'invalid-prompt-argument' | 'invalid-template-variable'>;
  readonly maxDepth: number | undefined;
  readonly validator: SchemaValidator | undefined;
}

const ALLOWED = {
  'invalid-prompt-argument': {
    what: 'an MCP prompt argument (arguments are named strings)',
    fix: 'make it a string, a number, a boolean or a string enum (@IsString(), @IsInt(), @IsBoolean(), @IsIn([...]))',
  },
  'invalid-template-variable': {
    what: 'a URI template variable (a URI carries strings)',
    fix: 'make it a string, a number, a boolean, a string enum, or an array of one of those',
  },
} as const;

/**
 * Compiles the arguments class of a prompt or template: its schema (the generator's issues are
 * reported), one parameter per property, and an issue (`source.code`) for each property a
 * string cannot carry (an object, a nested class, a union, a map; an array unless `lists`).
 * Without a class, there are no parameters and only `{}` is accepted. Resolves `undefined`
 * when there were issues.
 */
export function stringArgsOf(source: StringArgsSource, issues: ContractIssue[]): StringArgs | undefined {
  const { className, dto } = source;
  const before = issues.length;
  let schema: JsonObject;
  if (dto === undefined) schema = NO_ARGUMENTS_SCHEMA;
  else {
    try {
      const generated = generateSchema(dto, { role: 'arguments' });
      issues.push(...generated.issues);
      schema = frozenInPlace(generated.schema);
      if (generated.issues.length > 0) return undefined;
      const { params, refused } = stringParamsOf(schema, source.lists);
      for (const { name, why } of refused) {
        const allowed = ALLOWED[source.code];
        issues.push({
          code: source.code,
          className,
          member: name,
          message: `class ${className}: ${dto.name}.${name} is ${why}, which ${allowed.what} cannot carry: ${allowed.fix}`,
        });
      }
      if (issues.length > before) return undefined;
      return withPipeline(source, schema, params, generated.residual, issues);
    } catch (err) {
      issues.push({
        code: 'invalid-schema',
        className,
        message: `class ${className}: the schema of ${dto.name} could not be generated: ${errorText(err)}`,
      });
      return undefined;
    }
  }
  return withPipeline(source, schema, [], [], issues);
}

function withPipeline(
  source: StringArgsSource,
  schema: JsonObject,
  params: readonly StringParam[],
  residual: Parameters<typeof createArgumentsPipeline>[0]['residual'],
  issues: ContractIssue[],
): StringArgs | undefined {
  let pipeline: ReturnType<typeof createArgumentsPipeline>;
  try {
    pipeline = createArgumentsPipeline({
      schema,
      dto: source.dto,
      residual,
      maxDepth: source.maxDepth ?? DEFAULT_MAX_DEPTH,
      validator: source.validator,
    });
  } catch (err) {
    issues.push({
      code: 'invalid-schema',
      className: source.className,
      message: `class ${source.className}: the schema${source.dto === undefined ? '' : ` of ${source.dto.name}`} does not compile: ${errorText(err)}`,
    });
    return undefined;
  }
  const byName = new Map(params.map((param) => [param.name, param]));
  return Object.freeze({
    params: Object.freeze([...params]),
    schema,
    async parse(raw: Readonly<Record<string, unknown>>) {
      const plain = fromStrings(byName, raw);
      return { value: await pipeline.parse(plain), plain };
    },
  });
}
