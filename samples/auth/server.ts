import { jwtVerifier } from '../../src/mcp/index.js';
import { serveHttp, type HttpHandle } from '../../src/index.js';
import { issueTools, IssueStore } from './issues.js';

/** Options of `serveIssues`. */
export interface IssueServerOptions {
  /** The authorization server's issuer URL; its metadata names the JWKS the tokens are checked with. */
  readonly issuer: string;
  /** The port on 127.0.0.1; default 0 (a free one). */
  readonly port?: number;
  /** The canonical URL tokens must be issued for; default the URL served (`http://127.0.0.1:<port>/mcp`). */
  readonly resource?: string;
  /** Accept an `http:` issuer other than localhost (a development provider on another machine). */
  readonly allowInsecureIssuer?: boolean;
}

/**
 * Serves the issue tools over streamable HTTP behind OAuth: every request needs a bearer token
 * from `issuer` for this server's URL with the scope `mcp`; `create_issue` also needs
 * `issues:write`, `list_issues` `issues:read`. `tools/list` shows only what the caller may call.
 */
export async function serveIssues(options: IssueServerOptions, store = new IssueStore()): Promise<HttpHandle> {
  return serveHttp({ name: 'toolwright-sample-issues', version: '0.1.0' }, issueTools(store), {
    port: options.port ?? 0,
    hideForbiddenTools: true,
    auth: {
      verifier: jwtVerifier({ issuer: options.issuer }),
      issuer: options.issuer,
      requiredScopes: ['mcp'],
      resourceName: 'toolwright sample issue tracker',
      ...(options.resource !== undefined ? { resource: options.resource } : {}),
      ...(options.allowInsecureIssuer === true ? { allowInsecureIssuer: true } : {}),
    },
  });
}
