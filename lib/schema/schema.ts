import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { projectRoot, schemasDir } from '../base/paths.js';
import { requireCached } from './code-cache.js';

export type SchemaName = 'run-record' | 'feedback' | 'baseline' | (string & {});

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: string[] };

let ajv: Ajv | undefined;
let shapeAjv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
/** Schemas with a shape check (`conforms`): rows read by the thousand. Same list in dev/gen-validators.mjs. */
const SHAPED = new Set(['feedback-index']);

/** sha256 over schema file names and contents, sorted by name (same as dev/gen-validators.mjs). */
function schemasHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(schemasDir())
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    h.update(f)
      .update('\0')
      .update(readFileSync(join(schemasDir(), f)))
      .update('\0');
  }
  return h.digest('hex');
}

// Validators precompiled by `npm run build` (dist/validators/<name>.cjs): start-up without ajv's compile cost,
// each required only when first used. Used only when built from exactly the schemas on disk; otherwise every
// schema compiles at run time with ajv.
let req: NodeJS.Require | undefined;
const requireHere = (id: string): unknown => {
  req ??= createRequire(join(projectRoot(), 'package.json'));
  return req(id);
};
const precompiledDir = (): string => join(projectRoot(), 'dist', 'validators');
let precompiledOk: boolean | undefined;
let buildInfo: {
  schemasHash?: string;
  stats?: Record<string, { size: number; mtimeMs: number }>;
  defaultsSha256?: string;
  secretRulesSha256?: string;
} = {};

/**
 * True when the files in schemas/ are those the build hashed: the same names with the same size and mtime
 * (stat only, no reads), or else the same contents (sha256, as the build computes it).
 */
function precompiledFresh(): boolean {
  if (precompiledOk === undefined) {
    try {
      buildInfo = JSON.parse(readFileSync(join(precompiledDir(), 'hash.json'), 'utf8')) as typeof buildInfo;
      precompiledOk = statsMatch(buildInfo.stats) || buildInfo.schemasHash === schemasHash();
    } catch {
      precompiledOk = false;
    }
  }
  return precompiledOk;
}

function statsMatch(stats: Record<string, { size: number; mtimeMs: number }> | undefined): boolean {
  if (!stats) return false;
  const files = readdirSync(schemasDir()).filter((f) => f.endsWith('.schema.json'));
  if (files.length !== Object.keys(stats).length) return false;
  return files.every((f) => {
    const want = stats[f];
    if (!want) return false;
    const st = statSync(join(schemasDir(), f));
    return st.size === want.size && st.mtimeMs === want.mtimeMs;
  });
}

/**
 * sha256 of config/defaults.json as `npm run build` validated it against these schemas (null when the
 * precompiled validators are stale or absent): a config that is exactly those bytes is known valid.
 */
export function validatedDefaultsSha256(): string | null {
  return precompiledFresh() ? (buildInfo.defaultsSha256 ?? null) : null;
}

/** Likewise for config/secret-rules.json: bytes hashing to this are known to pass the secret-rules schema. */
export function validatedSecretRulesSha256(): string | null {
  return precompiledFresh() ? (buildInfo.secretRulesSha256 ?? null) : null;
}

type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;

/** `shape`: the checks without formats, stopping at the first failure (a shape check needs no error list). */
function instance(shape: boolean): Ajv {
  const built = shape ? shapeAjv : ajv;
  if (built) return built;
  // ajv itself (~30 ms to load) is only needed when there is no up-to-date precompiled validator.
  const { Ajv: AjvClass } = requireHere('ajv') as { Ajv: new (opts: object) => Ajv };
  const af = requireHere('ajv-formats') as { default?: AddFormats } & AddFormats;
  const addFormats = af.default ?? af;
  const a = new AjvClass({ allErrors: !shape, strict: true, allowUnionTypes: true, validateFormats: !shape });
  addFormats(a, ['date-time']);
  // Every schema is registered by its $id so cross-file $refs resolve; each compiles on first use.
  for (const file of readdirSync(schemasDir())
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    a.addSchema(JSON.parse(readFileSync(join(schemasDir(), file), 'utf8')) as object);
  }
  if (shape) shapeAjv = a;
  else ajv = a;
  return a;
}

function validator(name: SchemaName, shape = false): ValidateFunction {
  const id = shape ? `${name}.shape` : name;
  let fn = compiled.get(id);
  if (fn) return fn;
  if (precompiledFresh() && /^[a-z0-9-]+$/.test(name) && existsSync(join(precompiledDir(), `${id}.cjs`))) {
    const mod = requireCached(join(precompiledDir(), `${id}.cjs`)) as ValidateFunction & { default?: ValidateFunction };
    fn = mod.default ?? mod;
  } else {
    fn = instance(shape).getSchema(`${name}.schema.json`);
    if (!fn) throw new Error(`no schema named ${name} in ${schemasDir()}`);
  }
  compiled.set(id, fn);
  return fn;
}

/**
 * `data` passes every check of the schema but its formats (dates), no error list: for rows read by the thousand that
 * were validated when written. A quarter to a third cheaper than `validate` (docs/design/store.md).
 */
export function conforms<T>(name: SchemaName, data: unknown): data is T {
  if (!SHAPED.has(name)) throw new Error(`no shape check for ${name}`);
  return validator(name, true)(data) === true;
}

/** Renders ajv errors as `/json/path: what is wrong`, most specific first, oneOf noise dropped. */
function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  if (!errors?.length) return [];
  const specific = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  // A oneOf against [X, null] reports both branches; "must be null" is noise once X's errors are there.
  const useful = specific.filter(
    (e) => !(e.keyword === 'type' && (e.params as { type?: string }).type === 'null' && specific.length > 1),
  );
  const out: string[] = [];
  for (const e of useful.length ? useful : errors) {
    let path = e.instancePath || '/';
    let msg = e.message ?? 'is invalid';
    const p = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      path = `${e.instancePath}/${String(p.missingProperty)}`;
      msg = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      path = `${e.instancePath}/${String(p.additionalProperty)}`;
      msg = 'is not allowed here';
    } else if (e.keyword === 'enum') {
      msg = `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'pattern' && /bead|race_id|slug/.test(e.instancePath)) {
      msg = 'must be safe as a file name (letters, digits, ".", "_", "-"; no leading dot, no "/")';
    }
    const line = `${path}: ${msg}`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}

export function validate<T>(name: SchemaName, data: unknown): Validation<T> {
  const fn = validator(name);
  if (fn(data)) return { ok: true, value: data as T };
  return { ok: false, errors: formatErrors(fn.errors) };
}
