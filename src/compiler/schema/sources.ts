import { createRequire } from 'node:module';
import type { MetadataStorage } from 'class-validator';

/**
 * class-validator's `ValidationTypes`: the `type` of each of its rules. Kept here so reading a
 * rule's kind does not load class-validator.
 */
export const ValidationTypes = {
  CUSTOM_VALIDATION: 'customValidation',
  NESTED_VALIDATION: 'nestedValidation',
  PROMISE_VALIDATION: 'promiseValidation',
  CONDITIONAL_VALIDATION: 'conditionalValidation',
  WHITELIST: 'whitelistValidation',
  IS_DEFINED: 'isDefined',
} as const;

let metadataStorage: MetadataStorage | undefined;

/**
 * class-validator's global metadata storage, loaded the first time a class is read (class-validator
 * keeps one storage per process, on `global`, whichever copy wrote to it), so importing toolwright
 * for hand-built tools never loads class-validator (about 320 files with validator and
 * libphonenumber-js).
 */
function getMetadataStorage(): MetadataStorage {
  metadataStorage ??= (
    createRequire(import.meta.url)('class-validator') as { getMetadataStorage: () => MetadataStorage }
  ).getMetadataStorage();
  return metadataStorage;
}

/**
 * The fields of class-validator's `ValidationMetadata` (not exported from its entry point) the
 * generator reads.
 */
export interface ValidationMetadata {
  readonly type: string;
  readonly name?: string;
  readonly target: Function | string;
  readonly propertyName: string;
  readonly constraintCls?: Function;
  readonly constraints?: unknown[];
  readonly each?: boolean;
  readonly validateIf?: unknown;
}

/**
 * Read-only access to the three places a DTO's shape is recorded: class-validator's metadata
 * storage, class-transformer's `@Type` storage and TypeScript's `design:type`. Nothing here
 * writes metadata or caches it; the generator caches per class within one call.
 */

/**
 * Every class-validator rule of `dto` and its base classes, as class-validator itself collects
 * them for `validate()` (`always: true`, no strict groups, so rules in groups are included).
 * A subclass's rule hides a base class's rule of the same property and kind, exactly as in
 * class-validator. The answer may be class-validator's own list of the class's rules: callers
 * read it and never change it.
 */
export function validationMetadataOf(dto: Function): readonly ValidationMetadata[] {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  const prototype = (dto as { prototype?: unknown }).prototype;
  if (!(byTarget instanceof Map) || typeof prototype !== 'object' || prototype === null) {
    return storage.getTargetValidationMetadatas(dto, '', true, false) as readonly ValidationMetadata[];
  }
  return collectedMetadata(byTarget as Map<unknown, readonly ValidationMetadata[]>, dto, prototype);
}

const NO_RULES: readonly ValidationMetadata[] = Object.freeze([]);

/**
 * What class-validator's `getTargetValidationMetadatas(dto, '', true, false)` answers (with
 * `always` and no groups every rule is kept), without its walk over every class it knows for
 * each class asked about (which made compiling n tools cost n squared): the class's own rules,
 * then its base classes' rules that no own rule of the same property and kind hides, base
 * classes in the order class-validator first saw them. A base class is found through the
 * prototype chain (`dto.prototype instanceof Base`, where `Base.prototype.constructor === Base`).
 */
function collectedMetadata(
  byTarget: Map<unknown, readonly ValidationMetadata[]>,
  dto: Function,
  prototype: object,
): readonly ValidationMetadata[] {
  // class-validator's own list, never changed here (every caller only reads it).
  const own = byTarget.get(dto) ?? NO_RULES;
  const bases: Function[] = [];
  for (
    let proto = Object.getPrototypeOf(prototype) as object | null, hops = 0;
    proto !== null && hops < 1000;
    proto = Object.getPrototypeOf(proto) as object | null, hops++
  ) {
    const base = (proto as { constructor?: unknown }).constructor;
    if (typeof base === 'function' && base !== dto && base.prototype === proto && byTarget.has(base)) bases.push(base);
  }
  if (bases.length === 0) return own;
  if (bases.length > 1) {
    const order = new Map<unknown, number>();
    for (const key of byTarget.keys()) order.set(key, order.size);
    bases.sort((a, b) => order.get(a)! - order.get(b)!);
  }
  const inherited = bases
    .flatMap((base) => byTarget.get(base) ?? [])
    .filter((rule) => typeof rule.target !== 'string' && rule.target !== dto);
  return own.concat(
    inherited.filter((rule) => !own.some((mine) => mine.propertyName === rule.propertyName && mine.type === rule.type)),
  );
}

/**
 * The name class-validator reports for a custom constraint class (`@ValidatorConstraint({ name })`,
 * else the class name), or `undefined` when the class is unknown to it.
 */
export function constraintNameOf(constraintCls: Function | undefined): string | undefined {
  if (typeof constraintCls !== 'function') return undefined;
  const registered = getMetadataStorage().getTargetValidatorConstraints(constraintCls);
  const name = registered[0]?.name;
  if (typeof name === 'string' && name !== '') return name;
  return constraintCls.name === '' ? undefined : constraintCls.name;
}

/** The part of class-transformer's `TypeMetadata` the generator reads. */
export interface TypeHint {
  readonly typeFunction: (options?: unknown) => unknown;
  readonly options?: { readonly discriminator?: unknown; readonly keepDiscriminatorProperty?: boolean };
}

/** The part of class-transformer's `MetadataStorage` toolwright reads (never writes). */
export interface TypeStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeHint | undefined;
  /** `transformationType` 0 is class-transformer's `PLAIN_TO_CLASS`. */
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): readonly unknown[];
  findExposeMetadata(target: Function, propertyName: string): unknown;
  findExcludeMetadata(target: Function, propertyName: string): unknown;
  getStrategy(target: Function): 'excludeAll' | 'exposeAll' | 'none';
  getExposedMetadatas(target: Function): readonly unknown[];
  getExcludedMetadatas(target: Function): readonly unknown[];
}

let typeStorage: TypeStorage | null | undefined;

/**
 * class-transformer's own `defaultMetadataStorage`. class-transformer 0.5.1 has no exports map
 * and exposes the storage only as `cjs/storage.js`; Node loads the package's `main` (also CJS)
 * for `import 'class-transformer'`, so this `require` returns the very instance `@Type` writes
 * to. `null` when class-transformer is not installed (then no `@Type` is ever seen).
 */
export function classTransformerStorage(): TypeStorage | null {
  if (typeStorage === undefined) {
    try {
      const required = createRequire(import.meta.url)('class-transformer/cjs/storage.js') as {
        defaultMetadataStorage?: TypeStorage;
      };
      typeStorage =
        typeof required.defaultMetadataStorage?.findTypeMetadata === 'function'
          ? required.defaultMetadataStorage
          : null;
    } catch {
      typeStorage = null;
    }
  }
  return typeStorage;
}

/** Where class-transformer's storage module loads from; `null` when class-transformer is not installed. */
let storagePath: string | null | undefined;
/** `require.cache`, read once: making a `require` costs about 10 µs, and this is asked once per property. */
let moduleCache: NodeJS.Require['cache'] | undefined;

/**
 * `classTransformerStorage()` once this process has loaded class-transformer's storage, else
 * `null`, without loading it. A `@Type` is recorded by class-transformer's own decorators, which
 * load that very module (`require` caches it), so while it is not loaded there is no `@Type` to
 * read, and generating a schema does not pay for loading it (about 4 ms) nor for asking it about
 * every property. The DTO builder of a tool's first call loads it (see `instantiatorOf`).
 */
export function loadedTypeStorage(): TypeStorage | null {
  if (typeStorage !== undefined) return typeStorage;
  if (storagePath === undefined) {
    const required = createRequire(import.meta.url);
    moduleCache = required.cache;
    try {
      storagePath = required.resolve('class-transformer/cjs/storage.js');
    } catch {
      storagePath = null;
    }
  }
  if (storagePath === null || moduleCache?.[storagePath] === undefined) return null;
  return classTransformerStorage();
}

/** The `@Type(() => X)` of `dto.property` (own or inherited), or `undefined`. */
export function typeHintOf(dto: Function, property: string): TypeHint | undefined {
  return loadedTypeStorage()?.findTypeMetadata(dto, property) ?? undefined;
}

/** Whether reflect-metadata (or another `Reflect.getMetadata`) is loaded in this process. */
export function reflectMetadataLoaded(): boolean {
  return typeof (Reflect as unknown as { getMetadata?: unknown }).getMetadata === 'function';
}

/**
 * The `design:type` TypeScript recorded for `dto.property` (own or inherited): `String`,
 * `Number`, a class, `Object` for unions and interfaces, and with swc or oxc sometimes an enum
 * object. `undefined` when nothing was recorded or reflect-metadata is not loaded.
 */
export function designTypeOf(dto: Function, property: string): unknown {
  return designMetadataOf('design:type', dto, property);
}

/**
 * The `design:paramtypes` TypeScript recorded for the method `cls.prototype[method]` (recorded
 * only when the method or one of its parameters is decorated), or `undefined` when nothing was
 * recorded or reflect-metadata is not loaded.
 */
export function paramTypesOf(cls: Function, method: string): unknown {
  return designMetadataOf('design:paramtypes', cls, method);
}

function designMetadataOf(key: 'design:type' | 'design:paramtypes', cls: Function, member: string): unknown {
  if (!reflectMetadataLoaded()) return undefined;
  const getMetadata = (Reflect as unknown as { getMetadata: (key: string, target: object, member: string) => unknown })
    .getMetadata;
  return getMetadata(key, cls.prototype as object, member);
}
