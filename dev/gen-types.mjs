// Generates lib/schema/types.generated.ts from schemas/*.schema.json: the schemas are the one source of types.
// `node dev/gen-types.mjs --check` fails when the committed file is stale (run by the tests).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'schemas');
const out = join(root, 'lib', 'schema', 'types.generated.ts');

const schemas = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
);

let text =
  '// Generated from schemas/*.schema.json by `npm run gen:types`. Do not edit by hand.\n/* eslint-disable */\n';
const seen = new Set();
for (const [file, schema] of Object.entries(schemas)) {
  const ts = await compile(schema, schema.title ?? file, {
    bannerComment: '',
    additionalProperties: false,
    declareExternallyReferenced: true,
    cwd: dir,
    $refOptions: { resolve: { file: { read: (f) => readFileSync(join(dir, f.url.split('/').pop()), 'utf8') } } },
    format: false,
    style: { singleQuote: true },
  });
  // Types pulled in from another schema by $ref repeat across files: keep the first declaration of each name.
  const blocks = ts.split(/\n(?=export )/);
  for (const block of blocks) {
    const name = /^export (?:interface|type) (\w+)/.exec(block.trim())?.[1];
    if (name && seen.has(name)) continue;
    if (name) seen.add(name);
    text += block.trim() + '\n';
  }
}

if (process.argv.includes('--check')) {
  const current = readFileSync(out, 'utf8');
  if (current !== text) {
    console.error('lib/schema/types.generated.ts is stale: run `npm run gen:types`');
    process.exit(1);
  }
} else {
  writeFileSync(out, text);
}
