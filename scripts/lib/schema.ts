import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { projectRoot, schemasDir } from './paths.js';


export type SchemaName =
  | 'run-record'
  | 'feedback'
  | 'baseline'
  | (string & {});

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: string[] };

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** sha256 over schema file names and contents, sorted by name (same as scripts/dev/gen-validators.mjs). */
export function schemasHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(schemasDir()).filter((f) => f.endsWith('.schema.json')).sort()) {
    h.update(f).update('\0').update(readFileSync(join(schemasDir(), f))).update('\0');
  }
  return h.digest('hex');
}

// Validators precompiled by `npm run build` (dist/validators.generated.js): start-up without ajv's compile cost.
// Used only when built from exactly the schemas on disk; otherwise every schema compiles at run time.
type Precompiled = Record<string, ValidateFunction | string>;
async function loadPrecompiled(): Promise<Precompiled | null> {
  const file = join(projectRoot(), 'dist', 'validators.generated.js');
  if (!existsSync(file)) return null;
  try {
    const mod = (await import(pathToFileURL(file).href)) as Precompiled;
    return mod.schemasHash === schemasHash() ? mod : null;
  } catch {
    return null;
  }
}
const precompiled = await loadPrecompiled();

// ajv itself (~30 ms to load) is only needed when there is no up-to-date precompiled module.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
async function loadAjv(): Promise<{ Ajv: typeof Ajv; addFormats: AddFormats }> {
  const [ajvModule, addFormatsModule] = await Promise.all([import('ajv'), import('ajv-formats')]);
  // ajv-formats is CommonJS; under NodeNext its default import is the module object.
  const af = addFormatsModule as unknown as { default: { default?: AddFormats } & AddFormats };
  return { Ajv: ajvModule.Ajv, addFormats: (af.default.default ?? af.default) as AddFormats };
}
const runtime = precompiled ? null : await loadAjv();

function instance(): Ajv {
  if (ajv) return ajv;
  if (!runtime) throw new Error(`schema not in ${join(projectRoot(), 'dist', 'validators.generated.js')}: rebuild with npm run build`);
  const { Ajv, addFormats } = runtime;
  ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv, ['date-time']);
  // Every schema is registered by its $id so cross-file $refs resolve; each compiles on first use.
  for (const file of readdirSync(schemasDir()).filter((f) => f.endsWith('.schema.json')).sort()) {
    ajv.addSchema(JSON.parse(readFileSync(join(schemasDir(), file), 'utf8')) as object);
  }
  return ajv;
}

function validator(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  const pre = precompiled?.[`v_${name.replace(/[^A-Za-z0-9]/g, '_')}`];
  if (!fn && typeof pre === 'function') fn = pre;
  if (!fn) {
    fn = instance().getSchema(`${name}.schema.json`);
    if (!fn) throw new Error(`no schema named ${name} in ${schemasDir()}`);
    compiled.set(name, fn);
  }
  return fn;
}

/** Renders ajv errors as `/json/path: what is wrong`, most specific first, oneOf noise dropped. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  if (!errors?.length) return [];
  const specific = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  // A oneOf against [X, null] reports both branches; "must be null" is noise once X's errors are there.
  const useful = specific.filter((e) => !(e.keyword === 'type' && (e.params as { type?: string }).type === 'null' && specific.length > 1));
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

export function schemaNames(): string[] {
  return readdirSync(schemasDir()).filter((f) => f.endsWith('.schema.json')).map((f) => f.replace(/\.schema\.json$/, '')).sort();
}
