export type { AuthOptions } from './options.js';
export { createAuthGate, type AuthGate } from './http-gate.js';
export { PROTECTED_RESOURCE_METADATA_PATH } from './metadata.js';
export { jwtVerifier, type JwtVerifierOptions } from './jwt-verifier.js';
export { introspectionVerifier, type IntrospectionVerifierOptions } from './introspection-verifier.js';
export { discoverAuthorizationServer } from './discovery.js';
export { invalidToken, type TokenRejectedError, type TokenVerifier, type VerifiedToken } from './verified-token.js';
export { principalOf, type AuthInfoLike } from './principal.js';
export { missingScopes, mayCall, insufficientScopeText } from './tool-scopes.js';
