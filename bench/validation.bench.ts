/**
 * What argument validation costs per call: the compiled path a toolwright tool runs (depth
 * check, ajv, then the DTO built as class-transformer would build it) next to class-validator's `validate()` on a ready
 * instance and `plainToInstance` + `validate()` (whitelist + forbidNonWhitelisted), on the same
 * valid input and the same invalid input (8 problems). The variants run in interleaved rounds
 * within one time budget, and the table gives each one's median ops/s and the ratios. ajv alone
 * and plainToInstance alone show where the compiled path's time goes.
 *
 *   node dist/bench/validation.bench.js        (or `npm run bench`, which runs every bench)
 */
import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validate,
} from 'class-validator';
import { generateSchema } from '../src/compiler/schema/index.js';
import { compileSchema, createArgumentsPipeline } from '../src/compiler/validation/index.js';

const TIME_BUDGET_MS = 3_000;
const MAX_ROUNDS = 60;
const BATCH = 200;

enum Priority {
  Low = 'low',
  High = 'high',
}

class Assignee {
  @IsString() @Length(1, 40) name!: string;
  @IsOptional() @IsInt() @Min(0) weight?: number;
}

class CreateTask {
  @IsString() @Length(1, 120) title!: string;
  @IsOptional() @IsString() @MaxLength(2000) body?: string;
  @IsEnum(Priority) priority!: Priority;
  @IsInt() @Min(0) @Max(100) progress!: number;
  @IsBoolean() done!: boolean;
  @IsOptional() @IsArray() @ArrayMaxSize(10) @IsString({ each: true }) labels?: string[];
  @IsOptional() @IsInt() @Min(1) estimate?: number;
  @IsString() project!: string;
  @ValidateNested() @Type(() => Assignee) assignee!: Assignee;
  @IsOptional() @IsInt() @Min(0) parent?: number;
}

const VALID = {
  title: 'Write the bench',
  body: 'Measure the compiled path next to class-validator.',
  priority: 'high',
  progress: 40,
  done: false,
  labels: ['bench', 'validation'],
  estimate: 3,
  project: 'toolwright',
  assignee: { name: 'Ada', weight: 2 },
  parent: 7,
};

const INVALID = {
  title: '',
  priority: 'urgent',
  progress: 140,
  done: 'no',
  labels: ['ok', 5],
  estimate: 0,
  project: 12,
  assignee: { name: '' },
};

type Variant = { readonly name: string; readonly run: (input: object) => Promise<unknown> };

function variants(): Variant[] {
  const generated = generateSchema(CreateTask, { role: 'arguments' });
  if (generated.issues.length > 0)
    throw new Error(`bench DTO has schema issues: ${generated.issues.map((i) => i.message).join('; ')}`);
  const ajvOnly = compileSchema(generated.schema);
  const pipeline = createArgumentsPipeline({ schema: generated.schema, dto: CreateTask, residual: generated.residual });
  return [
    { name: 'ajv validator alone', run: async (input) => ajvOnly(input) },
    { name: 'plainToInstance alone', run: async (input) => plainToInstance(CreateTask, input) },
    { name: 'compiled path (depth, ajv, build DTO)', run: (input) => pipeline.parse(input).catch((err: Error) => err) },
    { name: 'class-validator validate(instance)', run: async (input) => validate(plainToInstanceOnce(input)) },
    {
      name: 'plainToInstance + validate (whitelist)',
      run: async (input) =>
        validate(plainToInstance(CreateTask, input), { whitelist: true, forbidNonWhitelisted: true }),
    },
  ];
}

/** class-validator's `validate()` alone needs an instance: build it once per input, outside the timing. */
const instances = new WeakMap<object, object>();
function plainToInstanceOnce(input: object): object {
  let instance = instances.get(input);
  if (instance === undefined) {
    instance = plainToInstance(CreateTask, input);
    instances.set(input, instance);
  }
  return instance;
}

async function opsPerSecond(variant: Variant, input: object): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) await variant.run(input);
  const ns = Number(process.hrtime.bigint() - start);
  return (BATCH * 1e9) / ns;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function format(ops: number): string {
  return ops >= 1e6 ? `${(ops / 1e6).toFixed(2)} M` : ops >= 1e3 ? `${(ops / 1e3).toFixed(1)} k` : ops.toFixed(0);
}

/** Runs the bench and prints, per input, each variant's median ops/s and the ratios that matter. */
export async function run(): Promise<void> {
  const all = variants();
  for (const [label, input] of [
    ['valid input', VALID],
    ['invalid input (8 problems)', INVALID],
  ] as const) {
    const samples = new Map<string, number[]>(all.map((v) => [v.name, []]));
    for (const variant of all) await opsPerSecond(variant, input); // warm up
    const deadline = Date.now() + TIME_BUDGET_MS;
    for (let round = 0; round < MAX_ROUNDS && Date.now() < deadline; round++) {
      for (const variant of all) samples.get(variant.name)!.push(await opsPerSecond(variant, input));
    }
    const medians = new Map([...samples].map(([name, values]) => [name, median(values)]));
    const rounds = samples.get(all[0]!.name)!.length;
    console.log(`validation, ${label} (median of ${rounds} interleaved rounds of ${BATCH} calls):`);
    for (const [name, ops] of medians) console.log(`  ${name.padEnd(46)} ${format(ops).padStart(9)} ops/s`);
    const compiled = medians.get('compiled path (depth, ajv, build DTO)')!;
    console.log(
      `  compiled path / validate(instance):            ${(compiled / medians.get('class-validator validate(instance)')!).toFixed(1)}x`,
    );
    console.log(
      `  compiled path / plainToInstance + validate:    ${(compiled / medians.get('plainToInstance + validate (whitelist)')!).toFixed(1)}x`,
    );
    console.log(
      `  ajv alone / compiled path:                     ${(medians.get('ajv validator alone')! / compiled).toFixed(1)}x`,
    );
    console.log(
      `  plainToInstance alone / compiled path:         ${(medians.get('plainToInstance alone')! / compiled).toFixed(1)}x`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
