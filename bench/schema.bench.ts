/**
 * What schema generation costs at compile time, and whether it stays linear: generateSchema on
 * DTOs with 10, 100 and 1,000 properties and on a chain of 10 and 100 nested classes, measured
 * side by side in interleaved rounds and printed per property (or per class) with the ratio to
 * the smallest case (about 1.0x means linear). For scale, the same line shows ajv compiling the
 * schema that was generated (the shared instance, a fresh schema object each time).
 *
 *   node dist/bench/schema.bench.js        (or `npm run bench`, which runs every bench)
 */
import 'reflect-metadata';
import { IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { generateSchema } from '../src/compiler/schema/index.js';
import { compileSchema } from '../src/compiler/validation/validator.js';

const TIME_BUDGET_MS = 2_000;
const MAX_ROUNDS = 200;

function property(cls: Function, name: string, kind: 'string' | 'integer', optional: boolean): void {
  const proto = cls.prototype as object;
  Reflect.defineMetadata('design:type', kind === 'string' ? String : Number, proto, name);
  if (kind === 'string') {
    MaxLength(64)(proto, name);
    IsString()(proto, name);
  } else {
    Min(0)(proto, name);
    IsInt()(proto, name);
  }
  if (optional) IsOptional()(proto, name);
}

function wideClass(size: number): Function {
  const Wide = class {};
  Object.defineProperty(Wide, 'name', { value: `Wide${size}` });
  for (let i = 0; i < size; i++) property(Wide, `p${i}`, i % 2 === 0 ? 'string' : 'integer', i % 3 === 0);
  return Wide;
}

function chainClass(depth: number): Function {
  let inner: Function | undefined;
  for (let level = depth; level > 0; level--) {
    const Level = class {};
    Object.defineProperty(Level, 'name', { value: `Level${level}` });
    property(Level, 'name', 'string', false);
    if (inner !== undefined) {
      const child = inner;
      Reflect.defineMetadata('design:type', child, Level.prototype, 'child');
      ValidateNested()(Level.prototype, 'child');
      Type(() => child)(Level.prototype, 'child');
    }
    inner = Level;
  }
  return inner!;
}

interface Case {
  readonly label: string;
  readonly units: number;
  readonly dto: Function;
}

export async function run(): Promise<void> {
  const cases: Case[] = [
    { label: 'wide, 10 properties', units: 10, dto: wideClass(10) },
    { label: 'wide, 100 properties', units: 100, dto: wideClass(100) },
    { label: 'wide, 1000 properties', units: 1000, dto: wideClass(1000) },
    { label: 'chain, 10 classes', units: 10, dto: chainClass(10) },
    { label: 'chain, 100 classes', units: 100, dto: chainClass(100) },
  ];
  for (const c of cases) {
    const result = generateSchema(c.dto);
    if (result.issues.length > 0) throw new Error(`${c.label}: ${result.issues[0]!.message}`);
  }
  for (let warm = 0; warm < 3; warm++) for (const c of cases) generateSchema(c.dto);
  const generate = new Map(cases.map((c) => [c.label, 0]));
  let rounds = 0;
  const began = performance.now();
  while (rounds < MAX_ROUNDS && performance.now() - began < TIME_BUDGET_MS) {
    const order = rounds % 2 === 0 ? cases : [...cases].reverse();
    for (const c of order) {
      const start = performance.now();
      generateSchema(c.dto);
      generate.set(c.label, generate.get(c.label)! + (performance.now() - start));
    }
    rounds++;
  }
  // ajv compiling the generated schema once, for scale (it is the larger cost at compile time).
  const compile = new Map<string, number>();
  for (const c of cases) {
    const { schema } = generateSchema(c.dto);
    const start = performance.now();
    compileSchema(schema);
    compile.set(c.label, performance.now() - start);
  }
  console.log(`schema: generateSchema, ${rounds} interleaved rounds; ajv compile of the result once`);
  const perUnit = (c: Case): number => (generate.get(c.label)! * 1000) / (rounds * c.units);
  const width = Math.max(...cases.map((c) => c.label.length));
  for (const c of cases) {
    const baseline = cases.find((other) => other.label.split(',')[0] === c.label.split(',')[0])!;
    const micros = perUnit(c);
    const total = generate.get(c.label)! / rounds;
    const ajv = compile.get(c.label)!;
    console.log(
      `  ${c.label.padEnd(width)}  ${micros.toFixed(2).padStart(7)} µs/unit  ${(micros / perUnit(baseline)).toFixed(2)}x ${baseline.label}  ${total.toFixed(2).padStart(7)} ms generate, ${ajv.toFixed(1).padStart(7)} ms ajv compile (${(total / ajv).toFixed(2)}x)`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
