export { CallRefusedError, RewriteUnavailableError, InterceptorError } from './errors.js';
export type { Interceptor, InterceptedCall, BeforeAnswer } from './types.js';
