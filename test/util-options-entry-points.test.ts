import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import {
  connectServer,
  connectTools,
  createHttpHandler,
  createProxy,
  createServer,
  serveHttp,
  serveStdio,
} from '../src/mcp/index.js';
import { ToolwrightModule } from '../src/nest/index.js';
import { InvalidOptionError } from '../src/util/options.js';

/*
 * The one options checker on every public entry point of the MCP edge and the Nest module: an
 * unknown key is an `InvalidOptionError` (code `invalid-option`) naming the entry point and the
 * keys it knows, before anything is started.
 */

function refusal(where: string, known: readonly string[]) {
  return (error: unknown) => {
    assert.ok(error instanceof InvalidOptionError, `expected an InvalidOptionError, got ${String(error)}`);
    assert.equal(error.code, 'invalid-option');
    assert.equal(error.message, `${where}: unknown option "bogus" (known options: ${known.join(', ')})`);
    return true;
  };
}

const INFO = { name: 't', version: '1.0.0' };
const CALL_CORE = [
  'policy',
  'interceptors',
  'maxOutputChars',
  'timeoutMs',
  'validator',
  'log',
  'onRecord',
  'telemetry',
];
const SERVER = [
  'resources',
  'prompts',
  'changes',
  'listPageSize',
  'scheduling',
  'hideForbiddenTools',
  'inputRounds',
  'replay',
  'cacheHints',
  'tasks',
];
const HANDLER = [
  'path',
  'stateless',
  'allowedHosts',
  'allowedOrigins',
  'maxBodyBytes',
  'sessionIdleMs',
  'unusedSessionIdleMs',
  'maxSessions',
  'maxSessionsPerPrincipal',
  'maxSessionsPerAddress',
  'forwarded',
  'maxMessageBytes',
  'onSessionOpened',
  'onSessionClosed',
  'auth',
  'onError',
  'changeEvents',
  'health',
  'nodeId',
];
const CONSUME = [
  'server',
  'prefix',
  'permission',
  'trustServerAnnotations',
  'trustClaims',
  'executionMode',
  'timeoutMs',
  'maxLLMChars',
  'policy',
  'elicit',
];
const bogus = { bogus: 1 } as never;

test('options: createServer, serveStdio, serveHttp and createHttpHandler refuse an unknown key, naming what they know', async () => {
  assert.throws(
    () => createServer(INFO, [], bogus),
    refusal('createServer', [...CALL_CORE, ...SERVER.slice(0, 4), ...SERVER.slice(4), 'transport']),
  );
  await assert.rejects(
    serveStdio(INFO, [], bogus),
    refusal('serveStdio', [
      'stdin',
      'stdout',
      'maxLineBytes',
      'maxMessageBytes',
      'shutdownTimeoutMs',
      'handleSignals',
      'exitProcess',
      'guardStdout',
      'log',
      ...CALL_CORE.filter((key) => key !== 'log'),
      ...SERVER,
      'schemaProfile',
      'recursionDepth',
    ]),
  );
  await assert.rejects(
    serveHttp(INFO, [], bogus),
    refusal('serveHttp', ['host', 'port', ...HANDLER, ...CALL_CORE, ...SERVER, 'schemaProfile', 'recursionDepth']),
  );
  assert.throws(() => createHttpHandler(() => createServer(INFO, []), bogus), refusal('createHttpHandler', HANDLER));
});

test('options: connectTools, connectServer and createProxy refuse an unknown key before connecting', async () => {
  await assert.rejects(connectTools(new Client({ name: 'c', version: '1' }), bogus), refusal('connectTools', CONSUME));
  await assert.rejects(
    connectServer({ url: 'http://127.0.0.1:9/mcp' }, bogus),
    refusal('connectServer', [
      ...CONSUME,
      'clientInfo',
      'onToolsChanged',
      'onRefreshError',
      'onFeaturesChanged',
      'onResourceUpdated',
    ]),
  );
  await assert.rejects(
    createProxy([{ url: 'http://127.0.0.1:9/mcp' }], bogus),
    refusal('createProxy', [
      'info',
      'policy',
      'maxLLMChars',
      'maxOutputChars',
      'trustClaims',
      'elicit',
      'stderr',
      'onError',
      'onRecord',
      'cacheHints',
      'tasks',
    ]),
  );
});

test('options: ToolwrightModule.forRoot and forRootAsync refuse an unknown key with the same checker', () => {
  assert.throws(
    () => ToolwrightModule.forRoot({ name: 'n', version: '1', transport: 'none', bogus: 1 } as never),
    refusal('ToolwrightModule', [
      'name',
      'version',
      'instructions',
      'transport',
      'path',
      'http',
      'auth',
      'hideForbiddenTools',
      'cacheHints',
      'shutdownTimeoutMs',
      'onRecord',
      'telemetry',
      'inputRounds',
      'replay',
      'scheduling',
      'tasks',
      'isGlobal',
    ]),
  );
  assert.throws(
    () => ToolwrightModule.forRootAsync({ useFactory: () => ({}) as never, bogus: 1 } as never),
    refusal('ToolwrightModule.forRootAsync', [
      'imports',
      'inject',
      'useFactory',
      'useClass',
      'useExisting',
      'provideInjectionTokensFrom',
      'isGlobal',
    ]),
  );
});
