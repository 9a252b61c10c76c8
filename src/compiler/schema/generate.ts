import type { ContractIssue, JsonObject } from '../../contract/index.js';
import { buildClassModel, type ClassModel } from './class-model.js';
import { setDataKey } from './json-values.js';
import * as messages from './messages.js';
import { classesInCycles, definitionNames } from './recursion.js';
import { renderClass, type ClassReference } from './render.js';
import { isDtoClass } from './type-resolution.js';
import type { GeneratedSchema, GenerateSchemaOptions, ResidualConstraint } from './types.js';
import type { ValueRules } from './value-rules.js';

/**
 * The schemas `generateSchema` made of plain keywords only (see `isPlainOutput`). Private to
 * this module; only `isPlainOutput` reads it.
 */
const plainOutputs = new WeakSet<object>();

/**
 * Whether `schema` is a schema `generateSchema` made, as it made it, of plain keywords only: no
 * `$ref` or `$defs` (no recursive class) and no `anyOf` (no discriminated `@Type`, no
 * `@UnionOf`). Every other keyword the generator writes has a value `isPlainSchema` accepts by
 * construction: types from a non-empty type set, an `enum` only when it lists a value (`not: {}`
 * otherwise), bounds only when they are finite numbers or whole non-negative numbers, formats
 * from the generator's own list, patterns that compiled with the `u` flag (see `patternOf`),
 * annotations the decorators checked. It says nothing about the object afterwards: a caller that
 * lets anyone else hold the schema before freezing it must check it itself. Internal to the
 * compiler: `compile` reads it for the schemas it generated and froze at once.
 */
export function isPlainOutput(schema: object): boolean {
  return plainOutputs.has(schema);
}

/** Whether `rules` (with their items and map values) render without `anyOf`. */
function rendersPlain(rules: ValueRules, depth = 0): boolean {
  if (depth > 16) return false;
  for (let level: ValueRules | undefined = rules; level !== undefined; level = level.items) {
    if (level.variants !== undefined || level.unionMembers !== undefined) return false;
    if (level.mapValues !== undefined && !rendersPlain(level.mapValues, depth + 1)) return false;
  }
  return true;
}

/**
 * `root` (the model of the DTO class) and the model of every DTO class it reaches, each read
 * once, in the order they are first reached.
 */
function reachableModels(root: ClassModel, role: messages.SchemaRole): Map<Function, ClassModel> {
  const models = new Map<Function, ClassModel>([[root.cls, root]]);
  const queue: Function[] = [...root.references];
  for (let next = 0; next < queue.length; next++) {
    const cls = queue[next]!;
    if (models.has(cls)) continue;
    const model = buildClassModel(cls, role);
    models.set(cls, model);
    const references = model.references;
    for (let index = 0; index < references.length; index++)
      if (!models.has(references[index]!)) queue.push(references[index]!);
  }
  return models;
}

/** The class reference of a class that holds no other class: never called. */
const NO_REFERENCE: ClassReference = (cls) => {
  throw new RangeError(`generateSchema: ${cls.name || 'a class'} was not reached`);
};

const NO_DEFINITIONS: ReadonlyMap<Function, string> = new Map();

/** The `$defs` name of each class of `models` that takes part in a reference cycle. */
function definitionNamesOf(models: ReadonlyMap<Function, ClassModel>): ReadonlyMap<Function, string> {
  const references = new Map<Function, readonly Function[]>();
  for (const [cls, model] of models) references.set(cls, model.references);
  const recursive = classesInCycles(references);
  return definitionNames([...models.keys()].filter((cls) => recursive.has(cls)));
}

/**
 * Generates the JSON Schema 2020-12 of a DTO class from class-validator's metadata,
 * class-transformer's `@Type`, `design:type` and toolwright's `@Field`/`@Description`:
 * `type: "object"`, `properties`, `required` (exactly the properties that are neither
 * `@IsOptional()` nor defaulted; left out when empty) and `additionalProperties: false`, on the
 * class and on every nested DTO. Nested DTO classes are inlined; classes in a reference cycle go
 * into `$defs` once and are used through `$ref: "#/$defs/<Name>"`.
 *
 * Constraints the schema cannot express are listed in `residual` (class-validator checks them
 * after ajv). Problems go to `issues`, each with its code, class, property and fix; the schema
 * is still complete and compiles, with the doubtful property left unconstrained. It never
 * throws for a user mistake and never changes any metadata. Each class is read once per call.
 */
export function generateSchema(dto: Function, options: GenerateSchemaOptions = {}): GeneratedSchema {
  const role = options.role ?? 'arguments';
  if (!isDtoClass(dto)) {
    return {
      schema: { type: 'object', properties: {}, additionalProperties: false },
      residual: [],
      issues: [messages.notAClass(dto, role)],
    };
  }
  const root = buildClassModel(dto, role);
  // A class that holds no other class (most argument classes): no other model, no `$defs`.
  const models = root.references.length === 0 ? undefined : reachableModels(root, role);
  const names = models === undefined ? NO_DEFINITIONS : definitionNamesOf(models);
  const reference: ClassReference =
    models === undefined
      ? NO_REFERENCE
      : (cls) => {
          const name = names.get(cls);
          return name === undefined ? renderClass(models.get(cls)!, reference) : { $ref: `#/$defs/${name}` };
        };
  const schema = renderClass(root, reference);
  if (names.size > 0) {
    const definitions: JsonObject = {};
    for (const [cls, name] of names) {
      setDataKey(definitions, name, renderClass(models!.get(cls)!, reference));
    }
    schema.$defs = definitions;
  }

  const residual: ResidualConstraint[] = [];
  const issues: ContractIssue[] = [];
  let plain = names.size === 0;
  if (models === undefined) plain = collectModel(root, residual, issues, plain);
  else for (const model of models.values()) plain = collectModel(model, residual, issues, plain);
  if (plain && issues.length === 0) plainOutputs.add(schema);
  return { schema, residual, issues };
}

/**
 * Adds the issues and residual constraints of `model` to `issues` and `residual`; answers
 * whether the schema is still plain (`plain`, and no property of `model` renders `anyOf`).
 */
function collectModel(
  model: ClassModel,
  residual: ResidualConstraint[],
  issues: ContractIssue[],
  plain: boolean,
): boolean {
  for (let index = 0; index < model.issues.length; index++) issues.push(model.issues[index]!);
  const properties = model.properties;
  for (let index = 0; index < properties.length; index++) {
    const property = properties[index]!;
    if (plain && !rendersPlain(property.rules)) plain = false;
    for (let at = 0; at < property.residual.length; at++)
      residual.push({ className: model.className, property: property.name, constraint: property.residual[at]! });
  }
  return plain;
}
