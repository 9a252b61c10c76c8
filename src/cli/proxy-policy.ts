import { createPolicy, type PermissionPolicy, type PermissionRule } from '../runtime/index.js';
import type { ProxyOptions } from '../mcp/index.js';
import { CliError } from './cli-error.js';

/**
 * The policy of `toolwright proxy --ask`: the config's `policy` rules first (and its
 * `implications`), then `read` allowed as the consumer's default allows it, and every other
 * permission no rule decides asked of the user through the elicitation of the proxy's own client
 * (pushed in the 2025 era, `input_required` in the 2026-07-28 era; a client that cannot be asked
 * denies it once). A `PermissionPolicy` given instead of options is refused: a JSON config holds
 * options only.
 */
export function askingProxyPolicy(configured: ProxyOptions['policy']): PermissionPolicy {
  if (configured !== undefined && typeof (configured as { decide?: unknown }).decide === 'function')
    throw new CliError('proxy: --ask takes the policy of the config as options ({"rules": [...]})');
  const options = (configured ?? {}) as { rules?: readonly PermissionRule[]; implications?: never };
  return createPolicy({
    rules: [...(options.rules ?? []), { effect: 'allow', capabilities: ['read'] }],
    ...(options.implications === undefined ? {} : { implications: options.implications }),
  });
}
