/*
 * The compiler's face to the package's other layers: what the runtime and the MCP edge use but
 * a user never should. The package's `exports` map has no path to this file, so none of it is
 * public API. (`compiledEntryOf` reads the module-private mark that says a compiled tool
 * validates its own arguments: it cannot be forged from outside the package.)
 */
export { problemsText } from './validation/ajv.js';
export { checkValidatorOption } from './validation/validator.js';
export { checkOutputSchema } from './validation/output-check.js';
export { compiledEntryOf, registerCompiledEntry, type CompiledEntry } from './compile/entry.js';
export { compileInDialect, dialectOf, unknownDialectWarning, type SchemaDialect } from './validation/dialect.js';
export { featureEntryOf, registerFeatureEntry, type FeatureEntry } from './compile/feature-entry.js';
