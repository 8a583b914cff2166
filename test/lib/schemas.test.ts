import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/base/paths.js';

const dir = join(projectRoot(), 'schemas');
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));

/** Every property of every object schema, with its JSON pointer inside the schema file. */
function* properties(node: unknown, at: string): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  const n = node as Record<string, unknown>;
  if (n.properties && typeof n.properties === 'object') {
    for (const [k, v] of Object.entries(n.properties as Record<string, unknown>))
      yield [`${at}/properties/${k}`, v as Record<string, unknown>];
  }
  for (const [k, v] of Object.entries(n)) {
    if (k === 'enum' || k === 'const') continue;
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* properties(v[i], `${at}/${k}/${i}`);
    else if (v && typeof v === 'object') yield* properties(v, `${at}/${k}`);
  }
}

function* objects(node: unknown, at: string): Generator<[string, Record<string, unknown>]> {
  if (!node || typeof node !== 'object') return;
  const n = node as Record<string, unknown>;
  if (n.type === 'object' || (Array.isArray(n.type) && n.type.includes('object'))) yield [at, n];
  for (const [k, v] of Object.entries(n)) {
    if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') continue;
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* objects(v[i], `${at}/${k}/${i}`);
    else if (v && typeof v === 'object') yield* objects(v, `${at}/${k}`);
  }
}

describe('schemas', () => {
  it.each(files)('%s: every field has a description and every object forbids unknown fields', (file) => {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    expect(schema.$id).toBe(file);
    const undocumented = [...properties(schema, '#')]
      .filter(([, p]) => !p.$ref && typeof p.description !== 'string')
      .map(([at]) => at);
    expect(undocumented).toEqual([]);
    const open = [...objects(schema, '#')]
      .filter(([, o]) => o.properties && o.additionalProperties !== false)
      .map(([at]) => at);
    expect(open).toEqual([]);
  });

  it('the generated types are up to date with the schemas', () => {
    expect(() =>
      execFileSync(process.execPath, [join(projectRoot(), 'dev/gen-types.mjs'), '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
