/**
 * The frozen schemas `compile` generated of plain keywords only (see `isPlainOutput`), which
 * `firstUseCompile` takes as vouched for without walking them again with `isPlainSchema`. The set
 * is private to this module, which no package export reaches, so only the compiler can vouch for
 * a schema: every schema from anywhere else (a hand-built tool, a schema passed to
 * `createArgumentsPipeline` or `compileSchema`) is still walked, or compiled at once, exactly as
 * before.
 */
const vouched = new WeakSet<object>();

/**
 * Records that `schema`, which the caller generated, froze at once and checked with
 * `isPlainOutput`, is valid JSON Schema 2020-12 of plain keywords that the default validator
 * compiles without fail, so its compile may wait for its first value. Internal to the compiler.
 */
export function vouchForSchema(schema: object): void {
  if (Object.isFrozen(schema)) vouched.add(schema);
}

/** Whether `vouchForSchema` recorded `schema`. */
export function isVouchedSchema(schema: object): boolean {
  return vouched.has(schema);
}
