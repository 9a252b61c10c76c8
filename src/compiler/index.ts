/**
 * `toolwright/compiler`: what `compile` is built from, for tools that inspect or generate
 * schemas: schema generation, the argument pipeline, inspection and listing helpers, and the
 * readers of the metadata the decorators record.
 *
 * @module toolwright/compiler
 */
export * from './compile/index.js';
export * from './schema/index.js';
export * from './validation/index.js';
export * from './lint/index.js';
export * from './profile/index.js';
export {
  getToolOptions,
  getClaims,
  getFactsMethod,
  getArgsParameter,
  getFieldOptions,
  type Class,
  type ToolClaims,
} from '../decorators/index.js';
