import 'reflect-metadata';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Replay, serveHttp, Tool, type CallContext, type ContractTool, type HttpHandle } from '../src/index.js';
import { ToolwrightModule } from '../src/nest/index.js';
import {
  connectRedis,
  RedisReplayStore,
  redisRelayBus,
  type RedisConnection,
  type RedisRelayBus,
} from '../src/redis/index.js';
import { IDEMPOTENCY_KEY_META } from '../src/mcp/index.js';
import { modernCall } from './support/cluster-clients.js';
import { envelope } from './support/modern-http.js';
import { INITIALIZE, POST_HEADERS, rawRequest } from './support/transport-http-probe.js';
import { redisSkip, startRedisServer, type RedisServer } from './support/redis-server.js';

/*
 * A NestJS application as one worker of a cluster: the module's `inputRounds` (node id, a Redis
 * relay), `replay` and the health endpoints, next to a plain `serveHttp` worker sharing one real
 * redis-server. A 2026-07-28-era call parked on either worker is answered through the other; a
 * keyed call runs once across both. One Redis, one Nest application, one plain worker. About 2 s.
 */

const ELICIT = envelope({ elicitation: { form: {} } });
const OK = { elicit_1: { action: 'accept', content: { ok: true } } };
let runs = 0;

function confirmText(node: string, action: string): string {
  return `${action}; asked and finished by ${node}`;
}

@Injectable()
@Tool({ name: 'confirm', description: 'Ask, then say which worker asked and finished', args: undefined })
class NestConfirm {
  async execute(_args: object, ctx: CallContext): Promise<string> {
    const reply = await ctx.elicit({ message: 'Proceed?' });
    return confirmText('nest-1', reply.action);
  }
}

@Injectable()
@Tool({ name: 'count', description: 'Count one run (keyed)', args: undefined })
@Replay('keyed')
class NestCount {
  execute(): string {
    runs += 1;
    return `run ${runs} on nest-1`;
  }
}

const plainTools: ContractTool[] = [
  {
    name: 'confirm',
    description: 'Ask, then say which worker asked and finished',
    async execute(_args, ctx) {
      const reply = await ctx.elicit({ message: 'Proceed?' });
      return confirmText('plain-1', reply.action);
    },
  },
  {
    name: 'count',
    description: 'Count one run (keyed)',
    replay: 'keyed',
    execute: async () => {
      runs += 1;
      return `run ${runs} on plain-1`;
    },
  },
];

const skip = redisSkip;
let redis: RedisServer;
let shared: RedisConnection;
let nestBus: RedisRelayBus;
let plainBus: RedisRelayBus;
let app: INestApplication;
let nestUrl: string;
let plain: HttpHandle;

before(async () => {
  if (skip !== undefined) return;
  redis = await startRedisServer();
  shared = await connectRedis({ url: redis.url });
  nestBus = redisRelayBus({ connection: shared, url: redis.url });
  plainBus = redisRelayBus({ connection: shared, url: redis.url });

  @Module({
    imports: [
      ToolwrightModule.forRoot({
        name: 'nest-worker',
        version: '1.0.0',
        transport: 'http',
        inputRounds: { nodeId: 'nest-1', relay: nestBus },
        replay: new RedisReplayStore(shared),
        http: { health: { checks: { redis: () => shared.health() } } },
      }),
    ],
    providers: [NestConfirm, NestCount],
  })
  class WorkerModule {}

  app = await NestFactory.create(WorkerModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  nestUrl = `${(await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1')}/mcp`;
  plain = await serveHttp({ name: 'plain-worker', version: '1.0.0' }, plainTools, {
    inputRounds: { nodeId: 'plain-1', relay: plainBus },
    replay: new RedisReplayStore(shared),
  });
});

after(async () => {
  await app?.close();
  await plain?.close();
  await nestBus?.close();
  await plainBus?.close();
  await shared?.close();
  await redis?.stop();
});

test(
  'nest cluster: a call parked on the Nest worker is answered through the plain one, and the other way round',
  { skip },
  async () => {
    const onNest = await modernCall(nestUrl, 'confirm', {}, ELICIT);
    const nestState = onNest.result?.['requestState'] as string;
    assert.match(nestState, /^nest-1\./);
    const relayed = await modernCall(plain.url, 'confirm', { requestState: nestState, inputResponses: OK }, ELICIT);
    assert.deepEqual(relayed.result?.['content'], [{ type: 'text', text: confirmText('nest-1', 'accept') }]);

    const onPlain = await modernCall(plain.url, 'confirm', {}, ELICIT);
    const plainState = onPlain.result?.['requestState'] as string;
    assert.match(plainState, /^plain-1\./);
    const back = await modernCall(nestUrl, 'confirm', { requestState: plainState, inputResponses: OK }, ELICIT);
    assert.deepEqual(back.result?.['content'], [{ type: 'text', text: confirmText('plain-1', 'accept') }]);
  },
);

test(
  'nest cluster: a keyed call runs once across the Nest worker and the plain one (the shared replay store)',
  { skip },
  async () => {
    const meta = { ...envelope({}), [IDEMPOTENCY_KEY_META]: 'nest-cluster-key-1' };
    const first = await modernCall(nestUrl, 'count', {}, meta);
    const retry = await modernCall(plain.url, 'count', {}, meta);
    assert.deepEqual(retry.result?.['content'], first.result?.['content']);
    assert.equal(runs, 1);
  },
);

test(
  'nest cluster: the Nest worker serves /healthz and /readyz (Redis reported), and its session ids carry its node id',
  { skip },
  async () => {
    const base = nestUrl.replace(/\/mcp$/, '');
    const live = await fetch(`${base}/healthz`);
    assert.deepEqual({ status: live.status, body: await live.json() }, { status: 200, body: { status: 'ok' } });
    const ready = await fetch(`${base}/readyz`);
    assert.deepEqual(
      { status: ready.status, body: await ready.json() },
      { status: 200, body: { status: 'ready', checks: { redis: { ok: true } } } },
    );
    const port = Number(new URL(base).port);
    const init = await rawRequest(port, { headers: POST_HEADERS, body: INITIALIZE });
    assert.match(String(init.headers['mcp-session-id']), /^nest-1\.[A-Za-z0-9_-]{43}$/);
  },
);

test('nest cluster: bad cluster options are refused naming the option', () => {
  assert.throws(
    () => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'http', replay: 'redis' as never }),
    { name: 'TypeError', message: 'ToolwrightModule: "replay" must be an object (a replay store), got string' },
  );
  assert.throws(
    () => ToolwrightModule.forRoot({ name: 'x', version: '1', transport: 'http', inputRounds: [] as never }),
    {
      name: 'TypeError',
      message: 'ToolwrightModule: "inputRounds" must be an object (see InputRoundOptions), got an array',
    },
  );
});
