import {
  isResourceTemplate,
  type ContractPrompt,
  type ContractResource,
  type ContractResourceTemplate,
} from '../../contract/index.js';
import { matchUriTemplate, parseUriTemplate } from '../../util/uri-template.js';
import type { ServerConnection } from '../client/index.js';
import { ServerChanges } from '../server/server-changes.js';

/** The resources and prompts of every upstream, merged, in upstream order then each server's order. */
export interface MergedFeatures {
  readonly resources: readonly (ContractResource | ContractResourceTemplate)[];
  readonly prompts: readonly ContractPrompt[];
}

/**
 * Every connection's resources, templates and prompts in order (`names[i]` names connection
 * `i`). Throws when two servers serve one URI, one URI template or one prompt name:
 * `proxy: resource "a:b" is served by both "x" and "y"; ...`.
 */
export function mergeFeatures(names: readonly string[], connections: readonly ServerConnection[]): MergedFeatures {
  const owners = new Map<string, string>();
  const claim = (key: string, what: string, owner: string, fix: string): void => {
    const first = owners.get(key);
    if (first !== undefined)
      throw new Error(`proxy: ${what} is served by both ${JSON.stringify(first)} and ${JSON.stringify(owner)}; ${fix}`);
    owners.set(key, owner);
  };
  const resources: (ContractResource | ContractResourceTemplate)[] = [];
  const prompts: ContractPrompt[] = [];
  connections.forEach((connection, index) => {
    const owner = names[index]!;
    for (const resource of connection.resources) {
      if (isResourceTemplate(resource))
        claim(
          `template ${resource.uriTemplate}`,
          `URI template ${JSON.stringify(resource.uriTemplate)}`,
          owner,
          'serve it from one of them',
        );
      else claim(`uri ${resource.uri}`, `resource ${JSON.stringify(resource.uri)}`, owner, 'serve it from one of them');
      resources.push(resource);
    }
    for (const prompt of connection.prompts) {
      claim(`prompt ${prompt.name}`, `prompt ${JSON.stringify(prompt.name)}`, owner, 'give one of them a prefix');
      prompts.push(prompt);
    }
  });
  return { resources, prompts };
}

/** The connection that serves `uri`: the one listing it, else the first whose template it matches. */
function ownerOf(connections: readonly ServerConnection[], uri: string): ServerConnection | undefined {
  for (const connection of connections)
    if (connection.resources.some((r) => !isResourceTemplate(r) && r.uri === uri)) return connection;
  for (const connection of connections)
    for (const resource of connection.resources) {
      if (!isResourceTemplate(resource)) continue;
      const parsed = parseUriTemplate(resource.uriTemplate);
      if (parsed.ok && matchUriTemplate(parsed.template, uri) !== undefined) return connection;
    }
  return undefined;
}

/**
 * The proxy's side of its upstreams' resources: one `ServerChanges` for every endpoint (the
 * proxy's set relays it, see `LiveSet`), on which a 2025-era client's `resources/subscribe`
 * subscribes upstream (once per URI, whoever else subscribed), its last unsubscribe ends that;
 * what the upstream then announces (`resources/updated`) goes to the proxy's clients. (A
 * 2026-07-28 client's `subscriptions/listen` stream hears what the proxy relays, but does not
 * subscribe upstream on its own: the SDK keeps its filter to itself.)
 */
export class ProxyFeatures {
  readonly changes = new ServerChanges();
  private readonly upstreamSubscriptions = new Map<
    string,
    { count: number; stop: Promise<(() => Promise<void>) | undefined> }
  >();

  constructor(
    private readonly connections: readonly ServerConnection[],
    private readonly onError: (error: Error) => void,
  ) {
    this.changes.onSubscription((uri, subscribed) => this.subscription(uri, subscribed));
  }

  private subscription(uri: string, subscribed: boolean): void {
    const held = this.upstreamSubscriptions.get(uri);
    if (subscribed) {
      if (held !== undefined) {
        held.count += 1;
        return;
      }
      const owner = ownerOf(this.connections, uri);
      const stop =
        owner === undefined
          ? Promise.resolve(undefined)
          : owner.subscribeResource(uri).catch((err: unknown) => {
              this.onError(err instanceof Error ? err : new Error(String(err)));
              return undefined;
            });
      this.upstreamSubscriptions.set(uri, { count: 1, stop });
      return;
    }
    if (held === undefined) return;
    held.count -= 1;
    if (held.count > 0) return;
    this.upstreamSubscriptions.delete(uri);
    void held.stop.then((stop) => stop?.()).catch(() => undefined);
  }
}
