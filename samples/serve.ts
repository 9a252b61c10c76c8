/**
 * `npm start`: serves the sample tool sets over streamable HTTP on 127.0.0.1, each at its own
 * endpoint of one port, and prints how to connect a client. It runs until Ctrl-C (or SIGTERM),
 * then closes every session and exits 0.
 *
 * - `/files/mcp`: the file tools (`read_file`, `write_file`, `list_directory`) confined to one
 *   folder: the folder given as the first argument, or else a fresh temporary folder holding a
 *   `hello.txt` (so a newcomer's client never writes into the working tree), removed on exit.
 * - `/shell/mcp`: the simulated shell with its permission policy (writes are asked through the
 *   client's elicitation; `/etc` is read-only).
 *
 * The port is `$PORT`, else 3000; when that port is taken it falls back to a free one (`PORT=0`
 * asks for a free one at once). Any other path answers 404 with a JSON-RPC error naming the
 * endpoints.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNodeServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpHandler, createServer, type McpHttpHandler } from '../src/mcp/index.js';
import { type CallCoreOptions } from '../src/runtime/index.js';
import { type ContractTool } from '../src/index.js';
import { fileTools } from './files/index.js';
import { sampleBanner } from './serve-banner.js';
import { guardedShell } from './shell/index.js';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 3000;

interface Mounted {
  readonly path: string;
  readonly name: string;
  readonly about: string;
  readonly tools: readonly ContractTool[];
  readonly handler: McpHttpHandler;
}

function mount(
  path: string,
  name: string,
  about: string,
  tools: readonly ContractTool[],
  options: CallCoreOptions = {},
): Mounted {
  const info = { name: `toolwright-sample-${name}`, version: '0.1.0' };
  createServer(info, tools, options); // checks the tool set once, up front
  const handler = createHttpHandler(() => createServer(info, tools, { ...options, transport: 'http' }), { path });
  return { path, name, about, tools, handler };
}

/** The folder the file tools work in, and whether it is a temporary one to remove on exit. */
function sampleWorkspace(given: string | undefined): { folder: string; temporary: boolean } {
  if (given !== undefined) return { folder: given, temporary: false };
  const folder = mkdtempSync(join(tmpdir(), 'toolwright-sample-'));
  writeFileSync(join(folder, 'hello.txt'), 'Hello from the toolwright file sample.\n');
  return { folder, temporary: true };
}

function listen(server: NodeServer, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, HOST, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

async function main(): Promise<void> {
  const wanted = process.env.PORT === undefined || process.env.PORT === '' ? DEFAULT_PORT : Number(process.env.PORT);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535)
    throw new Error(`PORT must be a port number from 0 to 65535, got ${JSON.stringify(process.env.PORT)}`);
  const { folder: workspace, temporary } = sampleWorkspace(process.argv[2]);
  const shell = guardedShell();
  const mounts = [
    mount('/files/mcp', 'files', `file tools confined to ${workspace}`, fileTools(workspace)),
    mount(
      '/shell/mcp',
      'shell',
      'a simulated shell; writes are asked through elicitation, /etc is read-only',
      shell.tools,
      shell.options,
    ),
  ];
  const byPath = new Map(mounts.map((m) => [m.path, m.handler]));
  const server = createNodeServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const handler = byPath.get(path);
    if (handler !== undefined) return handler(req, res);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32000, message: `Not Found: the MCP endpoints are ${[...byPath.keys()].join(', ')}` },
        id: null,
      }),
    );
  });

  let port: number;
  try {
    port = await listen(server, wanted);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    port = await listen(server, 0);
    process.stdout.write(`port ${wanted} is in use; using ${port} instead\n`);
  }

  process.stdout.write(
    sampleBanner(
      mounts.map((m) => ({
        name: m.name,
        url: `http://${HOST}:${port}${m.path}`,
        tools: m.tools.map((t) => t.name),
        about: m.about,
      })),
    ),
  );

  const stop = async (): Promise<void> => {
    process.stdout.write('stopping...\n');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all(mounts.map((m) => m.handler.close()));
    server.closeAllConnections();
    await closed;
    if (temporary) rmSync(workspace, { recursive: true, force: true });
  };
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await stop();
}

main().catch((error: unknown) => {
  process.stderr.write(`samples/serve: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
