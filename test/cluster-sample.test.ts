import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { OUT_DIR } from './support/cli-paths.js';
import { answererOf, countByNode, textOf } from './support/cluster.js';
import { modernClient } from './support/cluster-clients.js';
import { haproxySkipReason } from './support/haproxy.js';
import { redisSkip } from './support/redis-server.js';
import { freePort } from './support/ports.js';

/*
 * The cluster sample's one command (`npm run cluster`, i.e. `node dist/samples/cluster/start.js`)
 * as a user runs it (worker ports given): it starts Redis, two supervised processes and HAProxy,
 * serves through the balancer, and stops everything on SIGTERM. About 5 s.
 */

const skip = haproxySkipReason() ?? redisSkip;
const START = join(OUT_DIR, 'samples', 'cluster', 'start.js');

/** True while process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test(
  'cluster sample: one command starts Redis, 2 processes and HAProxy; calls spread, a parked call completes across them; SIGTERM stops it all',
  { skip, timeout: 60_000 },
  async () => {
    const ports = [await freePort(), await freePort()];
    const child = spawn(process.execPath, [START, '--processes', '2', '--port', '0', '--node-ports', ports.join(',')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner within 30 s: ${out}${err}`)), 30_000);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('HAProxy configuration:') && out.endsWith('\n\n')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited ${code}: ${err}`))));
      });
      const url = /endpoint {2}(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out)?.[1];
      assert.ok(url !== undefined, out);
      const pids = [...out.matchAll(/node-\d +http:\/\/127\.0\.0\.1:\d+\/mcp \(pid (\d+)\)/g)].map((m) => Number(m[1]));
      assert.equal(pids.length, 2, out);
      // The processes listen on the ports given, and the balancer checks their readiness.
      for (const [i, port] of ports.entries())
        assert.match(out, new RegExp(`^ {2}node-${i + 1} +http://127\\.0\\.0\\.1:${port}/mcp \\(pid \\d+\\)$`, 'm'));
      assert.match(out, /^ {4}http-check send meth GET uri \/readyz$/m);
      assert.match(out, /^ {2}Redis: redis:\/\/127\.0\.0\.1:\d+ \(started for this run\)$/m);
      assert.match(out, /^ {4}server node-2 127\.0\.0\.1:\d+ check inter 1000ms fall 2 rise 1$/m);
      const client = await modernClient(url);
      try {
        const answerers = [];
        for (let i = 0; i < 4; i++) answerers.push(answererOf(await client.call('whoami')));
        assert.deepEqual(countByNode(answerers), { 'node-1': 2, 'node-2': 2 });
        assert.deepEqual(
          answerers.map((a) => a.pid).sort((x, y) => x - y),
          [...pids, ...pids].sort((x, y) => x - y),
        );
        // Round robin over two processes: each retry lands on the process that did not park its call, and is relayed.
        for (let i = 0; i < 2; i++)
          assert.match(
            textOf(await client.call('confirm')),
            /^accept \{"ok":true\}; asked and finished by \{"pid":\d+,"node":"node-[12]"\}$/,
          );
        // A prompt that asks first is parked and resumed across the processes the same way.
        for (let i = 0; i < 2; i++) {
          const rendered = await client.request('prompts/get', { name: 'briefing' });
          assert.match(
            JSON.stringify(rendered.messages),
            /^\[\{"role":"user","content":\{"type":"text","text":"accept; briefed by \{\\"pid\\":\d+,\\"node\\":\\"node-[12]\\"\} from start to end"\}\}\]$/,
          );
        }
        const read = await client.request('resources/read', { uri: 'cluster://node' });
        assert.match(
          JSON.stringify(read.contents),
          /"uri":"cluster:\/\/node","mimeType":"application\/json","text":"\{\\"pid\\":\d+/,
        );
      } finally {
        await client.close();
      }
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      for (const pid of pids) assert.equal(alive(pid), false, `node process ${pid} outlived the sample`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  },
);
