import { CALL_CORE_OPTION_KEYS } from '../runtime/internal.js';

/*
 * The groups of option keys the MCP edge's public entry points share, for the one options checker
 * (`checkOptionsObject`: an unknown key is refused naming the entry point and its keys). Each
 * entry point spells its own list next to its options type from these groups, through
 * `optionKeys<ItsOptions>()`, so the compiler checks it against the type (a key added to a type
 * and left out of its list fails the build). This file imports no entry point: it is a leaf.
 */

export const CALL_CORE = CALL_CORE_OPTION_KEYS;
export const FEATURES = ['resources', 'prompts', 'changes', 'listPageSize'] as const;
export const SERVER = ['scheduling', 'hideForbiddenTools', 'inputRounds', 'replay', 'cacheHints', 'tasks'] as const;
export const PROFILE = ['schemaProfile', 'recursionDepth'] as const;
export const HTTP_HANDLER = [
  'path',
  'stateless',
  'allowedHosts',
  'allowedOrigins',
  'maxBodyBytes',
  'sessionIdleMs',
  'unusedSessionIdleMs',
  'maxSessions',
  'maxSessionsPerPrincipal',
  'maxSessionsPerAddress',
  'forwarded',
  'maxMessageBytes',
  'onSessionOpened',
  'onSessionClosed',
  'auth',
  'onError',
  'changeEvents',
  'health',
  'nodeId',
] as const;
export const STDIO = [
  'stdin',
  'stdout',
  'maxLineBytes',
  'maxMessageBytes',
  'shutdownTimeoutMs',
  'handleSignals',
  'exitProcess',
  'guardStdout',
  'log',
] as const;
export const CONSUME = [
  'server',
  'prefix',
  'permission',
  'trustServerAnnotations',
  'trustClaims',
  'executionMode',
  'timeoutMs',
  'maxLLMChars',
  'policy',
  'elicit',
] as const;

/** A key list once each (a key two option types share, such as `log`, is listed once). */
export function unique(keys: readonly string[]): readonly string[] {
  return Object.freeze([...new Set(keys)]);
}
