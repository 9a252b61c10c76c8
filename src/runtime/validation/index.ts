export { sharedAjv, compileSchema, problemsOf, markSelfValidating, validatesOwnArguments } from './ajv.js';
