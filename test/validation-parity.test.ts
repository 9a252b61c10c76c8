import 'reflect-metadata';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { InvalidArgumentsError, Tool, compile, type ContractTool } from '../src/index.js';
import { CORPUS, DTOS } from './support/compile-parity-corpus.js';
import { contextFor } from './support/compile-helpers.js';

/** The DTO the last compiled call handed its tool. */
let lastDto: unknown;

/** One tool per corpus DTO, compiled once. */
function toolsByDto(): Map<string, ContractTool> {
  const tools = new Map<string, ContractTool>();
  for (const [name, dto] of Object.entries(DTOS)) {
    @Tool({ name: `parity_${name}`, description: `Parity tool for ${name}`, args: dto })
    class ParityTool {
      execute(args: unknown) {
        lastDto = args;
        return 'ok';
      }
    }
    tools.set(name, compile([ParityTool])[0]!);
  }
  return tools;
}

async function ours(tool: ContractTool, input: unknown): Promise<'valid' | 'invalid'> {
  try {
    await tool.execute(input, contextFor(tool.name, input));
    return 'valid';
  } catch (err) {
    if (err instanceof InvalidArgumentsError) return 'invalid';
    throw err;
  }
}

async function classValidator(dto: Function, input: unknown): Promise<'valid' | 'invalid'> {
  const instance = plainToInstance(dto as new () => object, input as object);
  const errors = await validate(instance as object, { whitelist: true, forbidNonWhitelisted: true });
  return errors.length === 0 ? 'valid' : 'invalid';
}

test('the parity corpus is large enough and covers valid and invalid inputs', () => {
  // Exact counts: a case dropped by mistake (or a filter that matches nothing) shows up here.
  assert.deepEqual(
    {
      cases: CORPUS.length,
      valid: CORPUS.filter((c) => c.ours === 'valid').length,
      invalid: CORPUS.filter((c) => c.ours === 'invalid').length,
    },
    { cases: 99, valid: 28, invalid: 71 },
  );
});

test('the compiled pipeline agrees with class-validator except for the listed differences', async () => {
  const tools = toolsByDto();
  const rows: string[] = [];
  for (const entry of CORPUS) {
    const tool = tools.get(entry.dto)!;
    const mine = await ours(tool, entry.input);
    const theirs = await classValidator(DTOS[entry.dto], entry.input);
    const expectedTheirs =
      entry.knownDifference === undefined ? entry.ours : entry.ours === 'valid' ? 'invalid' : 'valid';
    if (mine !== entry.ours || theirs !== expectedTheirs) {
      rows.push(
        `${entry.dto} / ${entry.label}: compiled=${mine} (want ${entry.ours}), class-validator=${theirs} (want ${expectedTheirs})`,
      );
    }
  }
  assert.deepEqual(rows, []);
});

test('for valid inputs without nulls, the tool gets the DTO class-transformer builds', async () => {
  const tools = toolsByDto();
  const compared: string[] = [];
  for (const entry of CORPUS) {
    if (entry.ours !== 'valid' || JSON.stringify(entry.input).includes('null')) continue;
    lastDto = undefined;
    await tools.get(entry.dto)!.execute(entry.input, contextFor(entry.dto, entry.input));
    const expected = plainToInstance(DTOS[entry.dto] as new () => object, entry.input as object);
    assert.deepEqual(lastDto, expected, `${entry.dto} / ${entry.label}`);
    assert.equal(Object.getPrototypeOf(lastDto), DTOS[entry.dto].prototype);
    compared.push(entry.label);
  }
  assert.equal(compared.length, 24, `compared: ${compared.join(', ')}`);
});

test('every known difference states its reason', () => {
  const known = CORPUS.filter((c) => c.knownDifference !== undefined);
  assert.deepEqual(
    known.map((c) => `${c.dto} / ${c.label}`),
    [
      'CreateUser / numeric enum by member name',
      'CreateUser / own __proto__ key from JSON.parse',
      'CreateUser / constructor key',
      'Search / page missing',
      'Search / page given as an array of pages',
      'Schedule / date only',
      'Contact / email with a non-ASCII local part',
      'Contact / URL without a scheme',
      'Contact / each: true given a lone string',
      'Contact / an emoji with a variation selector under @MaxLength(1)',
      'Contact / two equal points under @ArrayUnique()',
    ],
  );
  assert.deepEqual(
    known.filter((c) => c.knownDifference!.length <= 40).map((c) => c.label),
    [],
    'each reason is a full sentence',
  );
});
