import { createRequire } from 'node:module';
import { getShapes, type ShapeOptions, type ValueTypeRef } from '../../decorators/index.js';
import { generateSchema } from '../schema/generate.js';
import { classTransformerStorage, designTypeOf, type TypeStorage } from '../schema/sources.js';
import { isDtoClass } from '../schema/type-resolution.js';
import { compileSchema } from './validator.js';

/** Builds a tool's arguments DTO from a plain object that ajv has already accepted. */
export type Instantiate = (plain: object) => object;

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/** Classes class-transformer converts values into itself (`String(v)`, `new Date(v)`, ...). */
const BUILT_INS: ReadonlySet<unknown> = new Set<unknown>([
  Object,
  String,
  Number,
  Boolean,
  Date,
  Map,
  Set,
  Array,
  Function,
  Symbol,
  BigInt,
  Promise,
  RegExp,
  globalThis.Buffer,
]);

/** Declared property types class-transformer fills as a collection other than an array. */
const INTO_COLLECTION: ReadonlySet<unknown> = new Set<unknown>([Set, Map]);

/**
 * How one class's properties are built: per property, the class of its nested values (`@Type`),
 * `null` for none, or `'slow'` when class-transformer would do something this builder does not
 * (a `@Transform`, an `@Expose`/`@Exclude`, a discriminator, a built-in target type).
 */
interface ClassPlan {
  readonly cls: new () => object;
  readonly properties: Map<string, ClassPlan | ShapePlan | null | 'slow'>;
}

/**
 * How a `@MapOf`/`@UnionOf` property is built: map values each as their class (into a `Map`
 * when the property is declared as one), a discriminated union by the class its discriminator
 * names, a plain union by the first member class whose schema accepts the object.
 */
type ShapePlan =
  | { readonly kind: 'map'; readonly value: ClassPlan | null; readonly asMap: boolean }
  | { readonly kind: 'discriminated'; readonly property: string; readonly cases: ReadonlyMap<string, ClassPlan> }
  | {
      readonly kind: 'union';
      readonly members: readonly { readonly plan: ClassPlan; readonly accepts: (value: unknown) => boolean }[];
    };

class NeedsClassTransformer extends Error {}

type PlainToInstance = (
  cls: new () => object,
  plain: unknown,
  options: { enableImplicitConversion: boolean },
) => unknown;
let plainToInstance: PlainToInstance | undefined;

/**
 * class-transformer's `plainToInstance`, loaded (about 30 files) the first time a class needs it;
 * the package's CommonJS `main`, the very module `import 'class-transformer'` gives a tool author.
 */
function classTransformer(): PlainToInstance {
  plainToInstance ??= (createRequire(import.meta.url)('class-transformer') as { plainToInstance: PlainToInstance })
    .plainToInstance;
  return plainToInstance;
}

/**
 * Returns a function that builds `dto` from a validated plain object exactly as
 * `plainToInstance(dto, plain, { enableImplicitConversion: false })` does, several times
 * faster. It is used only where the result is the same: classes whose properties carry no
 * `@Transform`, `@Expose` or `@Exclude`, whose `@Type`s name other such classes (no
 * discriminators, no built-ins such as `Date`). For anything else, or when class-transformer's
 * storage cannot be read, the returned function defers to `plainToInstance` itself, decided once
 * per class and property.
 *
 * Like class-transformer it runs the class's constructor (so property initialisers supply
 * defaults), copies every JSON value deeply (the tool never shares objects with the caller),
 * never copies a `__proto__` or `constructor` key, and skips keys the class (or `Object`, for
 * nested plain objects) defines as a method or a getter without a setter.
 */
export function instantiatorOf(dto: Function): Instantiate {
  const storage = classTransformerStorage();
  const slow: Instantiate = (plain) =>
    classTransformer()(dto as new () => object, plain, { enableImplicitConversion: false }) as object;
  if (storage === null) return slow;
  const plans = new Map<Function, ClassPlan | 'slow'>();
  const root = planOf(dto, storage, plans);
  if (root === 'slow') return slow;
  return (plain) => {
    try {
      return buildInstance(root, plain as Record<string, unknown>, storage, plans);
    } catch (error) {
      if (error instanceof NeedsClassTransformer) return slow(plain);
      throw error;
    }
  };
}

function planOf(cls: Function, storage: TypeStorage, plans: Map<Function, ClassPlan | 'slow'>): ClassPlan | 'slow' {
  const known = plans.get(cls);
  if (known !== undefined) return known;
  const exposesOrExcludes =
    storage.getStrategy(cls) !== 'none' ||
    storage.getExposedMetadatas(cls).length > 0 ||
    storage.getExcludedMetadatas(cls).length > 0;
  const plan: ClassPlan | 'slow' = exposesOrExcludes ? 'slow' : { cls: cls as new () => object, properties: new Map() };
  plans.set(cls, plan);
  return plan;
}

/** The class a value type reference names, or `undefined` for a primitive (or a type function that fails). */
function classOfRef(ref: ValueTypeRef): Function | undefined {
  let type: unknown = ref;
  if (typeof ref === 'function' && ref.prototype === undefined) {
    try {
      type = (ref as () => unknown)();
    } catch {
      return undefined;
    }
  }
  return isDtoClass(type) ? type : undefined;
}

/** A plan for a shaped property, or `'slow'` when one of its classes needs class-transformer. */
function shapePlanOf(
  owner: Function,
  key: string,
  shape: ShapeOptions,
  storage: TypeStorage,
  plans: Map<Function, ClassPlan | 'slow'>,
): ShapePlan | 'slow' {
  const planFor = (cls: Function | undefined): ClassPlan | null | 'slow' =>
    cls === undefined ? null : planOf(cls, storage, plans);
  switch (shape.kind) {
    case 'map': {
      const value = planFor(classOfRef(shape.value));
      return value === 'slow' ? 'slow' : { kind: 'map', value, asMap: designTypeOf(owner, key) === Map };
    }
    case 'discriminated': {
      const cases = new Map<string, ClassPlan>();
      for (const [name, ref] of shape.cases) {
        const plan = planFor(classOfRef(ref));
        if (plan === 'slow') return 'slow';
        if (plan !== null) cases.set(name, plan);
      }
      return { kind: 'discriminated', property: shape.discriminator, cases };
    }
    case 'union': {
      const members: { plan: ClassPlan; accepts: (value: unknown) => boolean }[] = [];
      for (const ref of shape.members) {
        const cls = classOfRef(ref);
        // A primitive member (String, Number, ...) builds nothing: a primitive value is kept as it is.
        if (cls === undefined) continue;
        const plan = planOf(cls, storage, plans);
        if (plan === 'slow') return 'slow';
        const validate = compileSchema(generateSchema(cls).schema);
        members.push({ plan, accepts: (value) => validate(value) === true });
      }
      return { kind: 'union', members };
    }
  }
}

function propertyPlanOf(
  plan: ClassPlan,
  key: string,
  storage: TypeStorage,
  plans: Map<Function, ClassPlan | 'slow'>,
): ClassPlan | ShapePlan | null | 'slow' {
  const known = plan.properties.get(key);
  if (known !== undefined) return known;
  let decided: ClassPlan | ShapePlan | null | 'slow';
  const shape = getShapes(plan.cls).get(key);
  if (shape !== undefined) {
    decided = shapePlanOf(plan.cls, key, shape, storage, plans);
  } else if (storage.findTransformMetadatas(plan.cls, key, PLAIN_TO_CLASS).length > 0) {
    decided = 'slow';
  } else {
    const hint = storage.findTypeMetadata(plan.cls, key);
    if (hint === undefined) {
      decided = null;
    } else if (
      hint.options?.discriminator !== undefined ||
      INTO_COLLECTION.has((hint as { reflectedType?: unknown }).reflectedType)
    ) {
      decided = 'slow';
    } else {
      // `@Type` always records a type function; what it returns may still be no class.
      const target = hint.typeFunction({});
      decided = typeof target !== 'function' || BUILT_INS.has(target) ? 'slow' : planOf(target, storage, plans);
    }
  }
  plan.properties.set(key, decided);
  return decided;
}

function buildInstance(
  plan: ClassPlan,
  plain: Record<string, unknown>,
  storage: TypeStorage,
  plans: Map<Function, ClassPlan | 'slow'>,
): object {
  const instance = new plan.cls() as Record<string, unknown>;
  const prototype = plan.cls.prototype as object;
  for (const key of Object.keys(plain)) {
    if (key === '__proto__' || key === 'constructor' || isReadOnlyMember(prototype, instance, key)) continue;
    const nested = propertyPlanOf(plan, key, storage, plans);
    if (nested === 'slow') throw new NeedsClassTransformer();
    const value = plain[key];
    instance[key] = nested === null ? copyJson(value) : buildTyped(nested, value, storage, plans);
  }
  return instance;
}

function buildTyped(
  plan: ClassPlan | ShapePlan,
  value: unknown,
  storage: TypeStorage,
  plans: Map<Function, ClassPlan | 'slow'>,
): unknown {
  if (Array.isArray(value)) return value.map((item) => buildTyped(plan, item, storage, plans));
  if (typeof value !== 'object' || value === null) return value;
  if (!('kind' in plan)) return buildInstance(plan, value as Record<string, unknown>, storage, plans);
  const object = value as Record<string, unknown>;
  switch (plan.kind) {
    case 'map': {
      const entries: [string, unknown][] = [];
      for (const key of Object.keys(object)) {
        if (key === '__proto__' || key === 'constructor') continue;
        entries.push([
          key,
          plan.value === null ? copyJson(object[key]) : buildTyped(plan.value, object[key], storage, plans),
        ]);
      }
      if (plan.asMap) return new Map(entries);
      const copy: Record<string, unknown> = {};
      for (const [key, item] of entries) copy[key] = item;
      return copy;
    }
    case 'discriminated': {
      const chosen = plan.cases.get(String(object[plan.property]));
      return chosen === undefined ? copyJson(value) : buildInstance(chosen, object, storage, plans);
    }
    case 'union': {
      const chosen = plan.members.find((member) => member.accepts(value));
      return chosen === undefined ? copyJson(value) : buildInstance(chosen.plan, object, storage, plans);
    }
  }
}

/** A deep copy of validated JSON, as class-transformer makes of untyped values. */
function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // `Object.prototype` has its own `constructor`, so `isReadOnlyMember` refuses that key too.
    if (key === '__proto__' || isReadOnlyMember(Object.prototype, copy, key)) continue;
    copy[key] = copyJson((value as Record<string, unknown>)[key]);
  }
  return copy;
}

/** class-transformer's rule: a key the prototype defines without a setter, or a method, is not set. */
function isReadOnlyMember(prototype: object, target: Record<string, unknown>, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
  return (descriptor !== undefined && descriptor.set === undefined) || target[key] instanceof Function;
}
