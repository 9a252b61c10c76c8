/**
 * Refuses an OAuth client provider that holds client credentials without naming the
 * authorization server they belong to. An SDK `OAuthClientProvider` (the `ClientCredentialsProvider`,
 * `PrivateKeyJwtProvider` and friends of `@modelcontextprotocol/client` or of
 * `@modelcontextprotocol/sdk`) learns which authorization server to use from the upstream's
 * protected resource metadata; only the `issuer` stamp on its client information (set by their
 * `expectedIssuer` option) makes the SDK refuse another one. Without it, an upstream whose
 * metadata names an authorization server of its choosing receives the client's secret.
 *
 * Holding credentials means: the provider's `clientInformation()` (asked without a context)
 * carries a `client_secret`, or the provider authenticates the client itself
 * (`addClientAuthentication`, as private-key JWT does). Such a provider must carry a non-empty
 * string `issuer` in its client information. A provider without client information (dynamic
 * registration), a public client (a `client_id` only) and an `AuthProvider` (`{ token() }`)
 * pass. Rejects with a `TypeError` naming the fix; resolves otherwise.
 */
export async function refuseUnboundCredentials(provider: object): Promise<void> {
  const { clientInformation, addClientAuthentication } = provider as {
    clientInformation?: unknown;
    addClientAuthentication?: unknown;
  };
  if (typeof clientInformation !== 'function') return;
  const info: unknown = await clientInformation.call(provider);
  const fields = typeof info === 'object' && info !== null ? (info as Record<string, unknown>) : {};
  const holdsCredentials = typeof fields.client_secret === 'string' || typeof addClientAuthentication === 'function';
  if (!holdsCredentials || (typeof fields.issuer === 'string' && fields.issuer !== '')) return;
  throw new TypeError(
    'connectServer: "authProvider" holds client credentials but names no authorization server, so the upstream ' +
      'would choose where they are sent; give the provider your issuer, e.g. new ClientCredentialsProvider({ ' +
      "clientId, clientSecret, scope, expectedIssuer: 'https://auth.example.com' })",
  );
}
