import { errorText } from '../../util/describe.js';
import { serveHttp, serveStdio, type ServedSet } from '../../mcp/index.js';
import type { ServeCommand } from '../args.js';
import type { CliIo } from '../io.js';
import { CliError, loadTools } from '../load.js';
import { cliPolicyOf } from '../load-policy.js';

/**
 * `toolwright serve <module>`: serves the module's tools (and its resources, templates and
 * prompts, with its `changes` export; see `loadTools`), as server `--name` (default: the
 * module's name) version `--version` (default `0.0.0`). Once serving, the module's `onServe`
 * export is called with the running server's `ServedSet` (awaited); one that throws closes the
 * server and fails the command (`module "x": its onServe() failed: ...`).
 *
 * - Over stdio (the default): stdout carries MCP messages only; one line on stderr says what is
 *   served. Resolves (exit code 0) once the transport closed: stdin EOF, a broken stdout or a
 *   signal (the transport drains in-flight calls and may exit the process itself).
 * - With `--http [host:]port`: streamable HTTP at `http://host:port/mcp`, stateful sessions
 *   unless `--stateless`. The URL is printed on stderr as soon as the server listens (port 0
 *   picks a free port, so read it there). Resolves (exit code 0) after Ctrl-C or SIGTERM, once
 *   the server closed. A port that cannot be listened on throws `CliError`
 *   (`cannot listen on 127.0.0.1:3000: ...`).
 *
 * Permissions are decided by the module's `policy` export (see `policyExported`): its rules, then
 * the user, asked through the client's elicitation (pushed in the 2025 era, `input_required` in
 * the 2026-07-28 era). With `--ask` and no `policy` export, a policy with no rules asks the user
 * for every permission; with neither, a tool that needs one is denied (`NoPermissionPolicyError`).
 */
export async function serveCommand(command: ServeCommand, io: CliIo): Promise<number> {
  const {
    tools,
    defaultName,
    resources,
    prompts,
    changes,
    onServe,
    policy: exported,
  } = await loadTools(command.module, io.cwd, command.profile === undefined ? {} : { schemaProfile: command.profile });
  const info = { name: command.name ?? defaultName, version: command.version ?? '0.0.0' };
  const count = servedCount(tools.length, resources?.length, prompts?.length);
  const policy = cliPolicyOf(exported, command.ask === true);
  const features = {
    ...(policy === undefined ? {} : { policy }),
    ...(resources === undefined ? {} : { resources }),
    ...(prompts === undefined ? {} : { prompts }),
    ...(changes === undefined ? {} : { changes }),
  };
  if (command.http === undefined) {
    const handle = await serveStdio(info, tools, features);
    await told(onServe, handle, command.module, () => handle.close());
    io.err(`toolwright: serving ${count} of ${info.name} ${info.version} over stdio\n`);
    await handle.closed;
    return 0;
  }
  const { host, port } = command.http;
  let server: Awaited<ReturnType<typeof serveHttp>>;
  try {
    server = await serveHttp(info, tools, { host, port, stateless: command.stateless, ...features });
  } catch (error) {
    throw new CliError(`cannot listen on ${host.includes(':') ? `[${host}]` : host}:${port}: ${errorText(error)}`);
  }
  await told(onServe, server, command.module, () => server.close());
  const mode = command.stateless ? 'stateless' : 'stateful sessions';
  io.err(
    `toolwright: serving ${count} of ${info.name} ${info.version} at ${server.url} (streamable HTTP, ${mode}); Ctrl-C stops\n`,
  );
  await io.stopRequested();
  await server.close();
  return 0;
}

/**
 * `3 tools`, and `, 2 resources, 1 prompt` for what the module serves besides (`1 tool` alone when
 * it serves only tools).
 */
export function servedCount(tools: number, resources: number | undefined, prompts: number | undefined): string {
  const words = [`${tools} tool${tools === 1 ? '' : 's'}`];
  if (resources !== undefined) words.push(`${resources} resource${resources === 1 ? '' : 's'}`);
  if (prompts !== undefined) words.push(`${prompts} prompt${prompts === 1 ? '' : 's'}`);
  return words.join(', ');
}

/** Calls the module's `onServe` with what is served; a failure closes the server and throws a `CliError`. */
async function told(
  onServe: ((served: ServedSet) => unknown) | undefined,
  served: ServedSet,
  module: string,
  close: () => Promise<void>,
): Promise<void> {
  if (onServe === undefined) return;
  try {
    await onServe(served);
  } catch (error) {
    await close();
    throw new CliError(`module ${JSON.stringify(module)}: its onServe() failed: ${errorText(error)}`);
  }
}
