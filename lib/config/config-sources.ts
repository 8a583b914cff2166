// Where each value of the resolved configuration came from, for `bin/config --show` (pure).
import { deepMerge, type ConfigLayers } from './config.js';

export interface ConfigValue {
  /** Dotted path, e.g. judge.enabled. */
  key: string;
  value: unknown;
  /** "default", the config file's path, the JUDGE_* variable, or "flag". */
  source: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaves (scalars and arrays) of an object as dotted paths; an empty object is a leaf. */
function leaves(o: unknown, prefix = ''): [string, unknown][] {
  if (!isObj(o) || (prefix !== '' && Object.keys(o).length === 0)) return [[prefix, o]];
  return Object.entries(o).flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

const ENV_OF: Record<string, string> = {
  'judge.enabled': 'JUDGE_ENABLED',
  'judge.model': 'JUDGE_MODEL',
  'judge.phase': 'JUDGE_PHASE',
  'judge.backend': 'JUDGE_BACKEND',
  'judge.max_per_hour': 'JUDGE_MAX_PER_HOUR',
  'judge.samples': 'JUDGE_SAMPLES',
};

/** Every leaf of the merged configuration with the last layer that set it (defaults < file < env < flags). */
export function configSources(layers: ConfigLayers): ConfigValue[] {
  const named: [string, unknown][] = [
    ['default', layers.defaults],
    [layers.file?.path ?? 'file', layers.file?.data ?? {}],
    ['env', layers.env],
    ['flag', layers.flags],
  ];
  const merged = named.reduce<unknown>((acc, [, layer]) => deepMerge(acc, layer), {});
  const setBy = new Map<string, string>();
  for (const [name, layer] of named) {
    for (const [key] of leaves(layer)) {
      // A layer that sets an object's leaf owns that leaf; one that replaces a whole array owns the array.
      for (const [k] of leaves(merged))
        if (k === key || k.startsWith(`${key}.`)) setBy.set(k, name === 'env' ? (ENV_OF[k] ?? 'env') : name);
    }
  }
  return leaves(merged).map(([key, value]) => ({ key, value, source: setBy.get(key) ?? 'default' }));
}
