import type { ContractIssue, Json } from '../../contract/index.js';
import type { FieldOptions, ShapeOptions } from '../../decorators/index.js';
import { applyShape } from './shape-rules.js';
import { CONSTRAINT_MAPPINGS, type MappingContext } from './constraint-map.js';
import { jsonCopyOf } from './json-values.js';
import * as messages from './messages.js';
import { isOptionalRule } from './optional.js';
import { constraintNameOf, designTypeOf, reflectMetadataLoaded, typeHintOf, ValidationTypes } from './sources.js';
import type { ValidationMetadata } from './sources.js';
import { resolvePropertyType, variantsOf } from './type-resolution.js';
import { typeSet } from './type-set.js';
import { ValueRules } from './value-rules.js';

/** Everything the generator knows about one property of a DTO class. */
export interface PropertyModel {
  readonly name: string;
  /** `@IsOptional()` was applied. */
  readonly optional: boolean;
  /**
   * Whether the schema lists the property in `required`: not when `@IsOptional()`, when it has
   * a default, or when a no-argument instance already holds a value for it. Every property that
   * is not required may also be `null`, which stands for "left out" (one rule for both kinds).
   */
  readonly required: boolean;
  /** The rules of the property's value (empty for a `@ValidateIf()` property). */
  readonly rules: ValueRules;
  readonly title?: string;
  readonly description?: string;
  readonly examples?: Json[];
  readonly deprecated?: boolean;
  /** `@Field({ default })`, else the property initialiser's value, when it is plain JSON. */
  readonly defaultValue?: Json;
  /** The class-validator constraints left to class-validator, by name, in order. */
  readonly residual: readonly string[];
}

/**
 * What `buildPropertyModel` reads of one property. It keeps no part of the input itself, so a
 * caller may point one input at each property in turn.
 */
export interface PropertyInput {
  readonly cls: Function;
  /** The class name used in messages. */
  readonly className: string;
  readonly name: string;
  readonly metadatas: readonly ValidationMetadata[];
  readonly field: FieldOptions | undefined;
  /** `@MapOf`/`@UnionOf`, when the property has one. */
  readonly shape?: ShapeOptions | undefined;
  /** The property's value in a no-argument instance (`undefined` when it holds none). */
  readonly initialValue: unknown;
  readonly issues: ContractIssue[];
}

/** The name a rule is listed under in `residual` (class-validator's error key where it has one). */
function residualNameOf(metadata: ValidationMetadata): string {
  if (metadata.type === ValidationTypes.CUSTOM_VALIDATION)
    return metadata.name ?? constraintNameOf(metadata.constraintCls) ?? 'customValidation';
  if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) return metadata.name ?? 'validateIf';
  return metadata.name ?? metadata.type;
}

/**
 * Reads one property: its class-validator rules (mapped to schema rules or left residual),
 * `@Type`, `design:type`, toolwright's `@Field`/`@Description`, and its initialiser. Problems
 * are appended to `input.issues`; it never throws for a user mistake.
 */
export function buildPropertyModel(input: PropertyInput): PropertyModel {
  const { cls, name, metadatas } = input;
  const className = input.className;
  const residual: string[] = [];
  let optional = false;
  let conditional = false;
  for (let index = 0; index < metadatas.length; index++) {
    const metadata = metadatas[index]!;
    if (isOptionalRule(metadata)) optional = true;
    else if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) conditional = true;
  }
  const rules = new ValueRules();

  if (conditional) {
    // @ValidateIf() switches every other rule of the property off when its condition is false,
    // and the condition is code: the schema lets any value through and class-validator decides.
    for (const metadata of metadatas) {
      if (
        isOptionalRule(metadata) ||
        metadata.type === ValidationTypes.WHITELIST ||
        metadata.type === ValidationTypes.IS_DEFINED
      )
        continue;
      addOnce(residual, residualNameOf(metadata));
    }
  } else {
    applyRules(input, rules, residual);
    const hint = typeHintOf(cls, name);
    let hinted: unknown;
    if (hint !== undefined) {
      try {
        hinted = hint.typeFunction();
      } catch (error) {
        input.issues.push(messages.typeFunctionThrew(className, name, error));
      }
    }
    if (input.shape !== undefined)
      applyShape(rules, input.shape, {
        className,
        property: name,
        designType: designTypeOf(cls, name),
        issues: input.issues,
      });
    else if (!typeIsSettled(rules)) {
      let design: { readonly value: unknown } | undefined;
      resolvePropertyType(rules, {
        className,
        property: name,
        hinted,
        variants: variantsOf(hint?.options),
        // Read once, and only when the decorators leave the type open.
        designType: () => (design ??= { value: designTypeOf(cls, name) }).value,
        reflectLoaded: reflectMetadataLoaded(),
        allowsAnything: hasRuleOfType(metadatas, ValidationTypes.WHITELIST),
        issues: input.issues,
      });
    }
    reportConflicts(className, name, rules, input.issues);
  }

  const field = input.field ?? NO_FIELD;
  const defaultValue = defaultOf(input, field);
  const examples = field.examples === undefined ? undefined : jsonCopyOf(field.examples);
  if (field.examples !== undefined && examples === undefined)
    input.issues.push(messages.fieldValueNotJson(className, name, 'examples'));
  // Every model has every key (the absent ones `undefined`), so all of them share one shape.
  return {
    name,
    optional,
    // class-transformer keeps an initialiser when the key is left out, JSON or not.
    required: !optional && defaultValue === undefined && input.initialValue === undefined,
    rules,
    title: field.title,
    description: field.description,
    examples: Array.isArray(examples) ? examples : undefined,
    deprecated: field.deprecated,
    defaultValue,
    residual,
  };
}

const NO_FIELD: FieldOptions = Object.freeze({});

/**
 * Whether the decorators fixed a type that is neither an object nor an array: then nothing
 * `resolvePropertyType` reads (`@Type`, `design:type`, a discriminator) can change the rules,
 * and it is not asked.
 */
function typeIsSettled(rules: ValueRules): boolean {
  const types = rules.types;
  return types !== undefined && !types.has('object') && !types.has('array');
}

const NO_CONSTRAINTS: readonly unknown[] = Object.freeze([]);

/** Adds `item` to the end of `list` unless it is there already. */
function addOnce(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

/** Whether one of `metadatas` is of class-validator's `type`. */
function hasRuleOfType(metadatas: readonly ValidationMetadata[], type: string): boolean {
  for (let index = 0; index < metadatas.length; index++) if (metadatas[index]!.type === type) return true;
  return false;
}

/**
 * The one context every rule of a property is mapped with, pointed at each rule in turn
 * (mappings use it only while they run): `residual()` lists the rule being mapped in the
 * property's residual list.
 */
class RuleContext implements MappingContext {
  rules: ValueRules;
  constraints: readonly unknown[] = NO_CONSTRAINTS;
  /** The name of the rule being mapped. */
  constraint = '';
  private readonly residualList: string[];

  constructor(rules: ValueRules, residual: string[]) {
    this.rules = rules;
    this.residualList = residual;
  }

  residual(): void {
    addOnce(this.residualList, this.constraint);
  }
}

function applyRules(input: PropertyInput, rules: ValueRules, residual: string[]): void {
  let eachUsed = false;
  let context: RuleContext | undefined;
  const metadatas = input.metadatas;
  for (let index = 0; index < metadatas.length; index++) {
    const metadata = metadatas[index]!;
    const type = metadata.type;
    if (
      type === ValidationTypes.CONDITIONAL_VALIDATION ||
      type === ValidationTypes.WHITELIST ||
      type === ValidationTypes.IS_DEFINED
    )
      continue;
    if (typeof metadata.validateIf === 'function') {
      // A rule with its own `validateIf` option applies only sometimes: class-validator checks it.
      addOnce(residual, residualNameOf(metadata));
      continue;
    }
    const target = metadata.each ? rules.itemRules() : rules;
    if (metadata.each) eachUsed = true;
    if (type === ValidationTypes.NESTED_VALIDATION) {
      target.nestedRequested = true;
      continue;
    }
    const mapping =
      type === ValidationTypes.CUSTOM_VALIDATION && metadata.name !== undefined
        ? CONSTRAINT_MAPPINGS.get(metadata.name)
        : undefined;
    if (mapping === undefined) {
      addOnce(residual, residualNameOf(metadata));
      continue;
    }
    context ??= new RuleContext(target, residual);
    context.constraint = metadata.name as string;
    context.rules = target;
    context.constraints = Array.isArray(metadata.constraints) ? metadata.constraints : NO_CONSTRAINTS;
    mapping.apply(context);
  }
  // `each: true` validates the items of an array (class-validator also accepts a lone
  // non-array value then; the schema asks for the array the property is declared as).
  if (eachUsed) rules.requireTypes(typeSet('array'), '{ each: true }');
}

function reportConflicts(className: string, name: string, rules: ValueRules, issues: ContractIssue[]): void {
  for (let level: ValueRules | undefined = rules; level !== undefined; level = level.items) {
    if (level.typeConflict !== undefined) {
      issues.push(messages.contradictoryTypes(className, name, level.typeConflict));
      return;
    }
    if (level.enumValues !== undefined && level.enumValues.length === 0) {
      issues.push(messages.noAllowedValue(className, name, level.enumDecorators));
      return;
    }
  }
}

/**
 * The property's default: `@Field({ default })` (an own key of the options) when it is set, else
 * the initial value, each as a JSON copy; `undefined` when there is none or it is no JSON.
 */
function defaultOf(input: PropertyInput, field: FieldOptions): Json | undefined {
  // Most options have no `default` at all: the plain read first, the own-key check after.
  if (field.default !== undefined && Object.prototype.hasOwnProperty.call(field, 'default')) {
    const copy = jsonCopyOf(field.default);
    if (copy === undefined) input.issues.push(messages.fieldValueNotJson(input.className, input.name, 'default'));
    return copy;
  }
  if (input.initialValue === undefined) return undefined;
  return jsonCopyOf(input.initialValue);
}
