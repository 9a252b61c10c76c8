import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AmbiguousOutcomeError,
  CallCancelledError,
  CallRefusedError,
  CallTimeoutError,
  IdempotencyConflictError,
  InterceptorError,
  InvalidBatchError,
  InvalidOutputError,
  NoPermissionPolicyError,
  OutputSchemaMismatchError,
  OutputTooLargeError,
  PermissionNeeded,
  RewriteUnavailableError,
  SamplingUnavailableError,
  TooManyPermissionQuestionsError,
  TransportError,
  UnknownOutcomeError,
  UnknownToolError,
} from '../src/runtime/index.js';
import {
  ContractError,
  DecoratorError,
  InvalidArgumentsError,
  PermissionDeniedError,
  ResourceNotFoundError,
  ToolError,
  ToolwrightError,
} from '../src/index.js';
import { CliError } from '../src/cli/load.js';
import { UsageError } from '../src/cli/args.js';

test('every error the package throws across its API is a ToolwrightError with a stable kebab-case code', () => {
  const made: readonly [Error & { code: string }, string, string][] = [
    [
      new ContractError([{ code: 'missing-description', className: 'A', message: 'm' }]),
      'ContractError',
      'missing-description',
    ],
    [
      new InvalidArgumentsError([{ pointer: '/a', message: 'must be string' }]),
      'InvalidArgumentsError',
      'invalid-arguments',
    ],
    [new ToolError('nope'), 'ToolError', 'tool-error'],
    [new ResourceNotFoundError('notes://x'), 'ResourceNotFoundError', 'resource-not-found'],
    [new ToolError('nope', { code: 'quota-exceeded' }), 'ToolError', 'quota-exceeded'],
    [new UnknownToolError('zap'), 'UnknownToolError', 'unknown-tool'],
    [new InvalidOutputError('bad'), 'InvalidOutputError', 'invalid-output'],
    [new OutputSchemaMismatchError('bad'), 'OutputSchemaMismatchError', 'output-schema-mismatch'],
    [new TransportError('closed'), 'TransportError', 'transport-failed'],
    [
      new PermissionDeniedError([{ subject: '/x', capabilities: ['write'] }]),
      'PermissionDeniedError',
      'permission-denied',
    ],
    [
      new PermissionNeeded({ tool: 't', subject: '/x', capabilities: ['write'] }),
      'PermissionNeeded',
      'permission-needed',
    ],
    [new TooManyPermissionQuestionsError('t', 3), 'TooManyPermissionQuestionsError', 'too-many-permission-questions'],
    [new InvalidBatchError('dup'), 'InvalidBatchError', 'invalid-batch'],
    [new CallCancelledError(), 'CallCancelledError', 'call-cancelled'],
    [new AmbiguousOutcomeError('lost'), 'AmbiguousOutcomeError', 'ambiguous-outcome'],
    [new CallTimeoutError('t', 5), 'CallTimeoutError', 'call-timeout'],
    [new UnknownOutcomeError('c1', 't'), 'UnknownOutcomeError', 'unknown-outcome'],
    [new IdempotencyConflictError('k', 'running'), 'IdempotencyConflictError', 'idempotency-conflict'],
    [new CallRefusedError('no'), 'CallRefusedError', 'call-refused'],
    [new RewriteUnavailableError('none'), 'RewriteUnavailableError', 'rewrite-unavailable'],
    [new InterceptorError('bad'), 'InterceptorError', 'interceptor-failed'],
    [new OutputTooLargeError(10, 5), 'OutputTooLargeError', 'output-too-large'],
    [new SamplingUnavailableError(), 'SamplingUnavailableError', 'sampling-unavailable'],
    [
      new NoPermissionPolicyError({ subject: '/x', capabilities: ['write'] }),
      'NoPermissionPolicyError',
      'no-permission-policy',
    ],
    [new CliError('boom'), 'CliError', 'cli-failed'],
    [new UsageError('bad flag'), 'UsageError', 'cli-usage'],
  ];
  assert.deepEqual(
    made.map(([error]) => [
      error.name,
      error.code,
      error instanceof ToolwrightError,
      /^[a-z]+(-[a-z]+)*$/.test(error.code),
    ]),
    made.map(([, name, code]) => [name, code, true, true]),
  );
  assert.equal(new CallTimeoutError('t', 5) instanceof AmbiguousOutcomeError, true);
});

test('a DecoratorError is a TypeError (a programming mistake) with the code invalid-decorator', () => {
  const error = new DecoratorError('@Tool() on class A: bad');
  assert.deepEqual(
    [error instanceof TypeError, error instanceof ToolwrightError, error.name, error.code],
    [true, false, 'DecoratorError', 'invalid-decorator'],
  );
});

test('ToolwrightError keeps the cause it was given', () => {
  const cause = new Error('socket closed');
  const error = new TransportError('server "files": tool "read" failed', { cause });
  assert.deepEqual([error.message, error.cause], ['server "files": tool "read" failed', cause]);
});
