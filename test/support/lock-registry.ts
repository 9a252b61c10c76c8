import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

/**
 * A package registry on 127.0.0.1 made of what this repository's package-lock.json names and
 * `npm ci` put in the npm cache: for each package name, a packument with every locked version
 * (dependencies, peers, bins, engines, os/cpu as locked), and the tarballs read from the cache
 * by their integrity. It lets a test run `npm install <name>` in an empty folder exactly as a
 * user would, without the network (npm's `--offline` cannot: `npm ci` caches tarballs but never
 * the packuments that resolving a bare name needs). A name the lock does not hold is a 404, and
 * an optional peer the lock does not hold is left out of the manifests that name it: npm never
 * installs an optional peer by itself, but it fetches it while it checks a peer set, and a 404
 * there fails the install (`ERESOLVE ... Found: @nestjs/websockets@undefined`) where the real
 * registry would have answered.
 */
export interface LockRegistry {
  readonly url: string;
  close(): Promise<void>;
}

interface LockedEntry {
  readonly name?: string;
  readonly version?: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly [key: string]: unknown;
}

const MANIFEST_KEYS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'license',
  'hasInstallScript',
] as const;

/** npm's own copies of cacache and semver (npm bundles both), found from `npmRoot` (`npm root -g`). */
function npmInternals(npmRoot: string): {
  cacache: { get: { byDigest(cache: string, integrity: string): Promise<Buffer> } };
  semver: { rcompare(a: string, b: string): number };
} {
  const require = createRequire(join(npmRoot, 'npm', 'package.json'));
  return { cacache: require('cacache'), semver: require('semver') };
}

/** Starts the registry for `lockPath`, reading tarballs from `cacheDir` (npm's cache folder). */
export async function startLockRegistry(options: {
  readonly lockPath: string;
  readonly cacheDir: string;
  readonly npmRoot: string;
}): Promise<LockRegistry> {
  const { cacache, semver } = npmInternals(options.npmRoot);
  const lock = JSON.parse(readFileSync(options.lockPath, 'utf8')) as { packages: Record<string, LockedEntry> };
  const byName = new Map<string, Map<string, LockedEntry>>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (
      !path.includes('node_modules/') ||
      entry.link === true ||
      entry.version === undefined ||
      entry.integrity === undefined
    )
      continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const versions = byName.get(name) ?? new Map<string, LockedEntry>();
    versions.set(entry.version, entry);
    byName.set(name, versions);
  }
  /** The entry's peers, without the optional ones this registry cannot serve (`undefined` when it has none). */
  const servablePeers = (entry: LockedEntry): Record<string, string> | undefined => {
    const peers = entry.peerDependencies as Record<string, string> | undefined;
    if (peers === undefined) return undefined;
    const meta = (entry.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    return Object.fromEntries(
      Object.entries(peers).filter(([name]) => byName.has(name) || meta[name]?.optional !== true),
    );
  };
  const integrities = new Set<string>();
  let base = '';
  const packument = (name: string, versions: Map<string, LockedEntry>): object => {
    const listed: Record<string, object> = {};
    for (const [version, entry] of versions) {
      const manifest: Record<string, unknown> = { name, version };
      for (const key of MANIFEST_KEYS) if (entry[key] !== undefined) manifest[key] = entry[key];
      manifest.peerDependencies = servablePeers(entry);
      manifest.dist = {
        tarball: `${base}/-/tarball/${encodeURIComponent(entry.integrity!)}`,
        integrity: entry.integrity,
      };
      integrities.add(entry.integrity!);
      listed[version] = manifest;
    }
    const latest = [...versions.keys()].sort((a, b) => semver.rcompare(a, b))[0]!;
    return { name, 'dist-tags': { latest }, versions: listed };
  };
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    const send = (status: number, body: string | Buffer, type: string): void => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    if (path.startsWith('/-/tarball/')) {
      const integrity = path.slice('/-/tarball/'.length);
      if (!integrities.has(integrity)) return send(404, '{"error":"not found"}', 'application/json');
      cacache.get.byDigest(options.cacheDir, integrity).then(
        (data) => send(200, data, 'application/octet-stream'),
        () => send(404, '{"error":"not in the npm cache"}', 'application/json'),
      );
      return;
    }
    const name = path.slice(1);
    const versions = byName.get(name);
    if (versions === undefined) return send(404, '{"error":"not found"}', 'application/json');
    send(200, JSON.stringify(packument(name, versions)), 'application/json');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
