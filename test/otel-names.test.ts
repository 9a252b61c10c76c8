import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as semconv from '@opentelemetry/semantic-conventions/incubating';
import { otelNames } from '../src/runtime/internal.js';

/*
 * The semantic-convention names toolwright's spans use are those of the release they are pinned
 * to: every `ATTR_*` name that is not toolwright's own equals the constant of the same name in
 * `@opentelemetry/semantic-conventions` at `SEMCONV_VERSION` (the version installed here).
 */

describe('semantic convention names', () => {
  it('the installed @opentelemetry/semantic-conventions is the pinned release', () => {
    const entry = createRequire(import.meta.url).resolve('@opentelemetry/semantic-conventions');
    const file = join(entry.slice(0, entry.lastIndexOf('/dist/')), 'package.json');
    const version = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    assert.equal(version, otelNames.SEMCONV_VERSION);
  });

  it('every convention name equals the pinned release constant of the same name', () => {
    const ours = Object.entries(otelNames).filter(
      ([key, value]) => key.startsWith('ATTR_') && typeof value === 'string' && !value.startsWith('toolwright.'),
    );
    assert.ok(ours.length >= 14);
    for (const [key, value] of ours) assert.equal((semconv as Record<string, unknown>)[key], value, key);
  });
});
