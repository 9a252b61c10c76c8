import type { ContractIssue } from '../../contract/index.js';
import { getShapes } from '../../decorators/index.js';
import { classChain, fieldOptionsOf } from '../../decorators/metadata.js';
import * as messages from './messages.js';
import { buildPropertyModel, type PropertyInput, type PropertyModel } from './property-model.js';
import { validationMetadataOf } from './sources.js';
import type { ValidationMetadata } from './sources.js';
import type { ValueRules } from './value-rules.js';

/** Everything the generator knows about one DTO class. */
export interface ClassModel {
  readonly cls: Function;
  /** The class name used in messages (`(anonymous class)` for a class without one). */
  readonly className: string;
  /** The properties, base-class properties first, each class's in declaration order. */
  readonly properties: readonly PropertyModel[];
  /** The DTO classes the properties hold (directly or as array items), in order, once each. */
  readonly references: readonly Function[];
  readonly issues: readonly ContractIssue[];
}

/**
 * What a no-argument instance holds: its own enumerable string keys, in order, and the value of
 * each (`values[i]` belongs to `keys[i]`, read once, right after the instance was made).
 */
interface InitialValues {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

const NO_RULES: readonly ValidationMetadata[] = Object.freeze([]);

const NO_INITIAL_VALUES: InitialValues = Object.freeze({ keys: Object.freeze([]), values: Object.freeze([]) });

/**
 * What a no-argument instance holds: its own enumerable string keys with their values (the
 * property initialisers, and with ES2022 class fields every declared field). Nothing (no keys)
 * when the constructor throws, needs arguments it did not get, or answers no object.
 */
function initialValuesOf(cls: Function): InitialValues {
  try {
    const instance: unknown = Reflect.construct(cls, []);
    if (typeof instance !== 'object' || instance === null) return NO_INITIAL_VALUES;
    const keys = Object.keys(instance);
    const values: unknown[] = [];
    for (let index = 0; index < keys.length; index++) values.push((instance as Record<string, unknown>)[keys[index]!]);
    return { keys, values };
  } catch {
    return NO_INITIAL_VALUES;
  }
}

/**
 * The rules of `metadatas` by property name, the names in the order they first appear. A
 * property's rules usually come one after another (class-validator records the decorators of a
 * property together): each run is taken as one slice.
 */
function rulesByProperty(metadatas: readonly ValidationMetadata[]): Map<string, ValidationMetadata[]> {
  const byProperty = new Map<string, ValidationMetadata[]>();
  let start = 0;
  while (start < metadatas.length) {
    const name = metadatas[start]!.propertyName;
    let end = start + 1;
    while (end < metadatas.length && metadatas[end]!.propertyName === name) end++;
    const run = metadatas.slice(start, end);
    start = end;
    const list = byProperty.get(name);
    if (list === undefined) byProperty.set(name, run);
    else for (let index = 0; index < run.length; index++) list.push(run[index]!);
  }
  return byProperty;
}

/**
 * The property names in schema order: base classes first, each class's in decorator order, then
 * the names only `@Field` or a shape decorator knows. `byProperty` holds the rules of
 * `metadatas` by property name, in the order the names first appear.
 */
function propertyOrder(
  cls: Function,
  metadatas: readonly ValidationMetadata[],
  byProperty: ReadonlyMap<string, unknown>,
  fields: ReadonlyMap<string, unknown>,
  shapes: ReadonlyMap<string, unknown>,
): string[] {
  const names = ownRulesOnly(cls, metadatas) ? [...byProperty.keys()] : chainOrder(cls, metadatas);
  if (fields.size > 0) fields.forEach((_, name) => addNew(names, name));
  if (shapes.size > 0) shapes.forEach((_, name) => addNew(names, name));
  return names;
}

/** Adds `name` to the end of `names` unless it is there already. */
function addNew(names: string[], name: string): void {
  if (!names.includes(name)) names.push(name);
}

/**
 * Whether `cls` extends nothing and every one of its rules is its own: then the decorator order
 * is the order the rules name their properties in, with nothing to look up in other classes.
 */
function ownRulesOnly(cls: Function, metadatas: readonly ValidationMetadata[]): boolean {
  if (Object.getPrototypeOf(cls) !== Function.prototype) return false;
  for (let index = 0; index < metadatas.length; index++) if (metadatas[index]!.target !== cls) return false;
  return true;
}

/** The names of the rules' properties, base classes first, each class's in decorator order. */
function chainOrder(cls: Function, metadatas: readonly ValidationMetadata[]): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  // Each class's own rules, read from that class, so a property a subclass redecorates keeps
  // the place its base class declared it at.
  const chain = classChain(cls);
  for (let c = 0; c < chain.length; c++) {
    const owner = chain[c]!;
    const rules = owner === cls ? metadatas : validationMetadataOf(owner);
    for (let index = 0; index < rules.length; index++)
      if (rules[index]!.target === owner) add(rules[index]!.propertyName);
  }
  for (let index = 0; index < metadatas.length; index++)
    if (typeof metadatas[index]!.target === 'function') add(metadatas[index]!.propertyName);
  return names;
}

/**
 * The names in declaration order when a no-argument instance has every one of them as an own
 * field (ES2022 class fields define them in declaration order, base classes first), so a
 * property known only to `@Field`/`@MapOf`/`@UnionOf` keeps its place among the class-validator
 * ones. Otherwise (a constructor that throws, fields set up by hand) the order is kept.
 */
function declarationOrder(names: string[], initial: InitialValues): string[] {
  const declared = initial.keys;
  if (declared.length < names.length) return names;
  // Usually the decorators came in declaration order already: then there is nothing to sort.
  let inOrder = true;
  for (let index = 0, last = -1; index < names.length; index++) {
    const at = declared.indexOf(names[index]!);
    if (at < 0) return names;
    if (at < last) inOrder = false;
    last = at;
  }
  return inOrder ? names : [...names].sort((a, b) => declared.indexOf(a) - declared.indexOf(b));
}

/** Adds the DTO classes `rules` holds (nested, as items, map values or union members) to `into`, once each. */
function collectReferences(rules: ValueRules, into: Function[], depth = 0): void {
  if (depth > 16) return;
  for (let level: ValueRules | undefined = rules; level !== undefined; level = level.items) {
    if (level.nested !== undefined && !into.includes(level.nested)) into.push(level.nested);
    const cases = level.variants?.cases;
    if (cases !== undefined)
      for (let index = 0; index < cases.length; index++)
        if (!into.includes(cases[index]!.cls)) into.push(cases[index]!.cls);
    if (level.mapValues !== undefined) collectReferences(level.mapValues, into, depth + 1);
    const members = level.unionMembers;
    if (members !== undefined)
      for (let index = 0; index < members.length; index++) collectReferences(members[index]!, into, depth + 1);
  }
}

/**
 * Reads one DTO class: every property class-validator or toolwright's field decorators know,
 * inherited ones included. An own field of a no-argument instance that no decorator mentions
 * is reported (it could never be set through the schema). Never throws for a user mistake.
 */
export function buildClassModel(cls: Function, role: messages.SchemaRole): ClassModel {
  const className = cls.name || '(anonymous class)';
  const metadatas = validationMetadataOf(cls);
  const fields = fieldOptionsOf(cls);
  const shapes = getShapes(cls);
  const byProperty = rulesByProperty(metadatas);
  const initial = initialValuesOf(cls);
  const issues: ContractIssue[] = [];
  const properties: PropertyModel[] = [];
  const references: Function[] = [];
  const names = declarationOrder(propertyOrder(cls, metadatas, byProperty, fields, shapes), initial);
  const declared = initial.keys;
  // One input for every property, pointed at each in turn (`buildPropertyModel` keeps no part of it).
  const input: { -readonly [K in keyof PropertyInput]: PropertyInput[K] } = {
    cls,
    className,
    name: '',
    metadatas: NO_RULES,
    field: undefined,
    shape: undefined,
    initialValue: undefined,
    issues,
  };
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    const at = declared.indexOf(name);
    input.name = name;
    input.metadatas = byProperty.get(name) ?? NO_RULES;
    input.field = fields.get(name);
    input.shape = shapes.get(name);
    input.initialValue = at < 0 ? undefined : initial.values[at];
    const property = buildPropertyModel(input);
    properties.push(property);
    collectReferences(property.rules, references);
  }
  for (let index = 0; index < declared.length; index++)
    if (!names.includes(declared[index]!)) issues.push(messages.undecoratedProperty(className, declared[index]!, role));
  return { cls, className, properties, references, issues };
}
