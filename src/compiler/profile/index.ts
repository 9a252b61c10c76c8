export { applySchemaProfile, type SchemaProfileOptions } from './apply.js';
export { SCHEMA_PROFILES, DEFAULT_RECURSION_DEPTH, type SchemaProfile, type ProfileRules } from './options.js';
export { profileSchema, entriesToMaps, type EntriesPlan, type ProfiledSchema } from './profile-schema.js';
