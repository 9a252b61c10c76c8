export { applySchemaProfile, type SchemaProfileOptions } from './apply.js';
export { SCHEMA_PROFILES, DEFAULT_RECURSION_DEPTH, type SchemaProfile } from './options.js';
export { profileSchema, entriesToMaps } from './profile-schema.js';
