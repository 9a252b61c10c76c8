import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { haproxyConfig } from '../samples/cluster/haproxy-config.js';
import { answererOf, countByNode, startCluster, textOf, type Answerer, type TestCluster } from './support/cluster.js';
import { legacyV2Client, modernClient, v1Client, type ClusterClient } from './support/cluster-clients.js';
import { haproxySkipReason } from './support/haproxy.js';
import { envelope, MODERN } from './support/modern-http.js';

/*
 * Several toolwright processes behind a real HAProxy, no Redis: round-robin 2026-07-28-era calls,
 * sticky 2025-era sessions, and a process killed (its sessions get 404, a call in flight gets a
 * 502, the others keep serving) and restarted. One set of 3 processes and one HAProxy for the
 * file; the tests run in order and the last one kills and restarts a process. About 10 s.
 */

const skip = haproxySkipReason();
let cluster: TestCluster;

before(async () => {
  if (skip === undefined) cluster = await startCluster(3);
});

after(async () => {
  await cluster?.stop();
});

const NODES = ['node-1', 'node-2', 'node-3'];

test('haproxy config: round robin, sessions routed by their node id, readiness checks, redispatch, forwardfor', () => {
  assert.equal(
    haproxyConfig({
      port: 8080,
      backends: [
        { name: 'a', port: 3001 },
        { name: 'b', host: '10.0.0.2', port: 3002, nodeId: 'node-b' },
      ],
      checkIntervalMs: 250,
    }),
    [
      'global',
      '  maxconn 4000',
      '',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 10m',
      '  timeout server 10m',
      '  timeout http-keep-alive 60s',
      '  timeout check 1000ms',
      '  retries 2',
      '  option redispatch 1',
      '  option forwardfor',
      '',
      'frontend mcp',
      '  bind 127.0.0.1:8080',
      '  default_backend toolwright',
      '',
      'backend toolwright',
      '  balance roundrobin',
      '  option httpchk',
      '  http-check send meth GET uri /readyz',
      '  http-check expect status 200',
      '  use-server a if { req.hdr(mcp-session-id) -m beg a. }',
      '  use-server b if { req.hdr(mcp-session-id) -m beg node-b. }',
      '  server a 127.0.0.1:3001 check inter 250ms fall 2 rise 1',
      '  server b 10.0.0.2:3002 check inter 250ms fall 2 rise 1',
      '',
    ].join('\n'),
  );
  assert.throws(() => haproxyConfig({ port: 0, backends: [{ name: 'a', port: 1 }] }), {
    name: 'TypeError',
    message: 'haproxy port must be an integer from 1 to 65535, got 0',
  });
  assert.throws(() => haproxyConfig({ port: 80, backends: [] }), {
    name: 'TypeError',
    message: 'haproxy needs at least one backend',
  });
  assert.throws(
    () =>
      haproxyConfig({
        port: 80,
        backends: [
          { name: 'a', port: 1 },
          { name: 'a', port: 2 },
        ],
      }),
    { name: 'TypeError', message: 'haproxy backend names must be unique and 1 to 64 of A-Za-z0-9_-, got "a"' },
  );
  assert.throws(() => haproxyConfig({ port: 80, backends: [{ name: 'a b', port: 1 }] }), {
    name: 'TypeError',
    message: 'haproxy backend names must be unique and 1 to 64 of A-Za-z0-9_-, got "a b"',
  });
  assert.throws(
    () =>
      haproxyConfig({
        port: 80,
        backends: [
          { name: 'a', port: 1, nodeId: 'x' },
          { name: 'b', port: 2, nodeId: 'x' },
        ],
      }),
    { name: 'TypeError', message: 'haproxy backend node ids must be unique and 1 to 64 of A-Za-z0-9_-, got "x"' },
  );
  assert.throws(() => haproxyConfig({ port: 80, backends: [{ name: 'a', port: 1 }], readyPath: 'readyz' }), {
    name: 'TypeError',
    message: 'haproxy readyPath must be a path of A-Za-z0-9._~/- beginning with "/", got "readyz"',
  });
  assert.throws(() => haproxyConfig({ port: 80, backends: [{ name: 'a', port: 70000 }] }), {
    name: 'TypeError',
    message: 'haproxy backend a: port must be an integer from 1 to 65535, got 70000',
  });
});

test('cluster: 2026-07-28-era calls of one client are spread round robin over every process', { skip }, async () => {
  const client = await modernClient(cluster.url);
  try {
    const answerers: Answerer[] = [];
    for (let i = 0; i < 9; i++) answerers.push(answererOf(await client.call('whoami')));
    assert.deepEqual(countByNode(answerers), { 'node-1': 3, 'node-2': 3, 'node-3': 3 });
    // Each answer names the process that really served it.
    const pids = new Map(cluster.processes.nodes.map((node) => [node.nodeId, node.pid]));
    for (const answerer of answerers) assert.equal(answerer.pid, pids.get(answerer.node));
  } finally {
    await client.close();
  }
});

/** The process each of `client`'s `count` whoami calls landed on. */
async function landings(client: ClusterClient, count: number): Promise<string[]> {
  const nodes: string[] = [];
  for (let i = 0; i < count; i++) nodes.push(answererOf(await client.call('whoami')).node);
  return nodes;
}

test(
  'cluster: a 2025-era session (SDK 1.x and 2.x clients) stays on one process; sessions land on different ones',
  { skip },
  async () => {
    const clients = [
      await v1Client(cluster.url),
      await legacyV2Client(cluster.url),
      await v1Client(cluster.url),
      await legacyV2Client(cluster.url),
    ];
    try {
      const homes: string[] = [];
      for (const client of clients) {
        const nodes = await landings(client, 4);
        assert.deepEqual(
          nodes,
          Array(4).fill(nodes[0]),
          `one session's calls all land on one process, got ${nodes.join(', ')}`,
        );
        homes.push(nodes[0]!);
      }
      // Sessions interleaved: calls of every session again, still each on its home process.
      for (let round = 0; round < 2; round++) {
        for (const [i, client] of clients.entries())
          assert.equal(answererOf(await client.call('whoami')).node, homes[i]);
      }
      assert.ok(new Set(homes).size >= 2, `four sessions were all placed on ${homes[0]}`);
      for (const home of homes) assert.ok(NODES.includes(home));
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  },
);

test(
  'cluster: a killed process: its sessions get 404 and re-initialise, the others keep serving, and it serves again after a restart',
  { skip, timeout: 60_000 },
  async () => {
    // Sessions until two of them live on different processes; the first one's process is killed.
    const sessions: Array<{ client: ClusterClient; home: string }> = [];
    for (let i = 0; i < 6 && new Set(sessions.map((s) => s.home)).size < 2; i++) {
      const client = await v1Client(cluster.url, { timeoutMs: 4000 });
      sessions.push({ client, home: answererOf(await client.call('whoami')).node });
    }
    const victim = sessions[0]!;
    const survivor = sessions.find((s) => s.home !== victim.home)!;
    assert.ok(survivor !== undefined, 'two sessions on different processes');
    const index = NODES.indexOf(victim.home);
    try {
      // A 2025-era call in flight when its process dies: its SSE response stream breaks. HAProxy
      // never re-sends the request (the process may have acted on it). The SDK client reports the
      // broken stream at once and fails the call at its own time limit (it does not fail a request
      // when the stream of its answer breaks).
      const inFlight = victim.client.call('slow', { ms: 60_000 }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await cluster.processes.kill(index);
      assert.equal(await inFlight, 'MCP error -32001: Request timed out');
      assert.deepEqual(
        victim.client.transportErrors.filter((e) => e.startsWith('SSE stream disconnected')).slice(0, 1),
        ['SSE stream disconnected: TypeError: terminated'],
      );

      // The session's next request reaches a live process, which does not know it: 404.
      await assert.rejects(victim.client.call('whoami'), {
        message:
          'Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}',
      });
      // The client initialises again and is served by a live process.
      const again = await v1Client(cluster.url);
      sessions.push({ client: again, home: '' });
      const nodes = await landings(again, 3);
      assert.ok(!nodes.includes(victim.home), `a new session landed on the dead ${victim.home}`);
      // Another process's session keeps serving.
      assert.equal(answererOf(await survivor.client.call('whoami')).node, survivor.home);
      // Stateless calls skip the dead process.
      const modern = await modernClient(cluster.url);
      try {
        const spread = await landings(modern, 6);
        assert.deepEqual(
          countByNode(spread.map((node) => ({ node, pid: 0 }))),
          Object.fromEntries(NODES.filter((n) => n !== victim.home).map((n) => [n, 3])),
        );
      } finally {
        await modern.close();
      }
    } finally {
      await Promise.all(sessions.map((s) => s.client.close().catch(() => undefined)));
      if (!cluster.processes.nodes[index]!.alive) await cluster.processes.restart(index);
    }
    await backInRotation(victim.home);
  },
);

/** Waits (up to 60 whoami calls, 50 ms apart) until `node` answers a call through the balancer again. */
async function backInRotation(node: string): Promise<void> {
  const modern = await modernClient(cluster.url);
  try {
    const seen = new Set<string>();
    for (let i = 0; i < 60 && !seen.has(node); i++) {
      seen.add(answererOf(await modern.call('whoami')).node);
      if (!seen.has(node)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(seen.has(node), `${node} never served again after its restart`);
  } finally {
    await modern.close();
  }
}

/**
 * POSTs one 2026-07-28-era `slow` call through the balancer and says how it ended: the node that
 * answered, the HTTP status of a non-JSON answer (the balancer's own), or the fetch error.
 */
async function slowCall(id: number, ms: number): Promise<{ node: string } | { failed: string }> {
  const meta = envelope({});
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms }, _meta: meta } };
  const headers = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': 'slow',
  };
  try {
    const res = await fetch(cluster.url, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (!(res.headers.get('content-type') ?? '').startsWith('application/json'))
      return { failed: `HTTP ${res.status}` };
    return { node: answererOf((JSON.parse(text) as { result: unknown }).result).node };
  } catch (error) {
    return { failed: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

test(
  'cluster: a killed process: its 2026-07-28-era calls in flight fail at once (never re-sent); the calls on the other processes are answered',
  { skip, timeout: 60_000 },
  async () => {
    // Six slow stateless calls, round robin over the processes in rotation; then one process that
    // runs at least one of them dies. The victim is whichever process is seen running a call first
    // (asked directly, not through the balancer): on a loaded machine a health check may have taken
    // one process out of rotation for a moment, so no fixed process is sure to get a call.
    const calls = Array.from({ length: 6 }, (_, i) => slowCall(i + 1, 10_000));
    const direct = await Promise.all(cluster.processes.nodes.map((node) => modernClient(node.url)));
    let victim = -1;
    let running = 0;
    try {
      for (let i = 0; i < 200 && victim < 0; i++) {
        for (let index = 0; index < direct.length && victim < 0; index++) {
          running = (JSON.parse(textOf(await direct[index]!.call('whoami'))) as { running: number }).running;
          if (running > 0) victim = index;
        }
        if (victim < 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await Promise.all(direct.map((client) => client.close()));
    }
    assert.ok(victim >= 0, 'no process ever ran one of the six calls');
    const victimNode = cluster.processes.nodes[victim]!.nodeId;
    await cluster.processes.kill(victim);
    const outcomes = await Promise.all(calls);
    const failures = outcomes.filter((o): o is { failed: string } => 'failed' in o);
    const answered = outcomes.filter((o): o is { node: string } => 'node' in o).map((o) => o.node);
    // The calls on the victim fail (the balancer's 502, or the connection closed under a response it
    // had begun); none is answered by another process, so none ran twice.
    const seen = JSON.stringify(outcomes);
    assert.ok(failures.length >= running, `fewer calls failed than ${victimNode} ran (${running}): ${seen}`);
    for (const failure of failures) assert.match(failure.failed, /^(HTTP 502|TypeError: fetch failed)$/, seen);
    for (const node of answered) assert.ok(node !== victimNode && NODES.includes(node), `answered by ${node}: ${seen}`);
    // Calls after the kill reach only the live processes.
    for (let i = 0; i < 4; i++) {
      const after = await slowCall(10 + i, 0);
      assert.ok('node' in after && after.node !== victimNode, `after the kill: ${JSON.stringify(after)}`);
    }
    await cluster.processes.restart(victim);
    await backInRotation(victimNode);
  },
);
