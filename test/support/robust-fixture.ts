// Serves robustTools() as a child process: over stdio (default) or, with ROBUST_TRANSPORT=http,
// over streamable HTTP on 127.0.0.1 (the URL is printed on stderr as `probe: url <url>`).
// ROBUST_SERVER (JSON) holds server/transport options; ROBUST_POLICY (JSON) the policy's; in
// both, `null` stands for `Infinity` (which JSON cannot carry).
// Probe events go to stderr as `probe: <event>` lines; `probe: ready` once serving.
import { serveHttp, serveStdio } from '../../src/mcp/transports/index.js';
import { createPolicy } from '../../src/runtime/index.js';
import { robustTools } from './robust-tools.js';
import { probe } from './probe.js';

const infinity = (_key: string, value: unknown): unknown => (value === null ? Infinity : value);
const options = JSON.parse(process.env.ROBUST_SERVER ?? '{}', infinity) as Record<string, unknown>;
const policy = JSON.parse(process.env.ROBUST_POLICY ?? '{}', infinity) as Record<string, unknown>;
const tools = robustTools(probe);
// The policy is the host's (every call goes through it); only the write tool asks for a permission.
options.policy = createPolicy(policy);
const info = { name: 'robust-fixture', version: '1.0.0' };

const started =
  process.env.ROBUST_TRANSPORT === 'http'
    ? serveHttp(info, tools, options).then((handle) => probe(`url ${handle.url}`))
    : serveStdio(info, tools, options);
started.then(
  () => probe('ready'),
  (error: unknown) => {
    process.stderr.write(`fixture failed: ${String(error)}\n`);
    process.exitCode = 2;
  },
);
