// judgeloop.json found from the current folder upwards; defaults < file < JUDGE_* env < flags; state/ beside the
// file; bin/config --show names the layer of every value.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  chooseConfigFile,
  chooseStateDir,
  findConfigFile,
  isInside,
  loadConfig,
  readConfigLayers,
} from '../../lib/config/config.js';
import { configSources } from '../../lib/config/config-sources.js';
import { readEnv } from '../../lib/base/env.js';
import { stateChoice } from '../../lib/config/config.js';
import { projectRoot } from '../../lib/base/paths.js';
import { tempDir } from '../helpers/repo.js';
import { BIN, cleanEnv, runProc } from './_setup.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function tree(): { top: string; deep: string } {
  const top = tempDir('judgeloop-config-');
  dirs.push(top);
  const deep = join(top, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
  return { top, deep };
}
const write = (file: string, data: unknown) =>
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));

describe('finding the config file', () => {
  it('the nearest judgeloop.json or .judgeloop.json upwards; none → the per-user state folder, never the package', () => {
    const { top, deep } = tree();
    expect(findConfigFile(deep)).toBe(null);
    expect(stateChoice(readEnv({ HOME: '/home/u' }), deep).dir).toBe('/home/u/.local/state/judgeloop');
    expect(stateChoice(readEnv({ HOME: '/home/u', XDG_STATE_HOME: '/x/st' }), deep).dir).toBe('/x/st/judgeloop');
    // A relative XDG_STATE_HOME is invalid by the XDG spec: ignored.
    expect(stateChoice(readEnv({ HOME: '/home/u', XDG_STATE_HOME: 'rel' }), deep).dir).toBe(
      '/home/u/.local/state/judgeloop',
    );
    expect(stateChoice(readEnv({ HOME: '/home/u' }), deep).dir).not.toContain(projectRoot());
    expect(() => stateChoice(readEnv({ JUDGELOOP_REQUIRE_CONFIG: 'true' }), deep).dir).toThrow(
      `no judgeloop.json in ${deep} or above it, and JUDGELOOP_REQUIRE_CONFIG asks for one: run \`judgeloop init\` there`,
    );
    write(join(top, 'judgeloop.json'), {});
    expect(findConfigFile(deep)).toBe(join(top, 'judgeloop.json'));
    write(join(top, 'a', '.judgeloop.json'), {});
    expect(findConfigFile(deep)).toBe(join(top, 'a', '.judgeloop.json'));
    expect(stateChoice(readEnv({}), deep).dir).toBe(join(top, 'a', 'state'));
  });
  it('both names in one folder are ambiguous: one line naming both', () => {
    const { top } = tree();
    write(join(top, 'judgeloop.json'), {});
    write(join(top, '.judgeloop.json'), {});
    expect(() => findConfigFile(top)).toThrow(
      /judgeloop\.json and .*\.judgeloop\.json: two config files in one folder/,
    );
  });
  it('--config > JUDGELOOP_CONFIG > found upwards', () => {
    const { top, deep } = tree();
    write(join(top, 'judgeloop.json'), {});
    write(join(top, 'other.json'), {});
    write(join(top, 'flag.json'), {});
    expect(chooseConfigFile({ env: readEnv({}), cwd: deep })).toEqual({
      file: join(top, 'judgeloop.json'),
      via: 'found',
    });
    expect(chooseConfigFile({ env: readEnv({ JUDGELOOP_CONFIG: join(top, 'other.json') }), cwd: deep })).toEqual({
      file: join(top, 'other.json'),
      via: 'env',
    });
    expect(
      chooseConfigFile({
        env: readEnv({ JUDGELOOP_CONFIG: join(top, 'other.json') }),
        configFile: '../../../flag.json',
        cwd: deep,
      }),
    ).toEqual({ file: join(top, 'flag.json'), via: 'flag' });
  });
  it('state: JUDGELOOP_STATE_DIR > state_dir (relative to the file) > state/ beside the file', () => {
    const { top, deep } = tree();
    const file = join(top, 'judgeloop.json');
    write(file, {});
    const choice = { file, via: 'found' as const };
    expect(chooseStateDir(readEnv({}), deep, choice)).toEqual({
      dir: join(top, 'state'),
      via: 'beside-file',
      file,
    });
    write(file, { state_dir: 'shared/st' });
    expect(chooseStateDir(readEnv({}), deep, choice)).toEqual({
      dir: join(top, 'shared', 'st'),
      via: 'file',
      file,
    });
    expect(chooseStateDir(readEnv({ JUDGELOOP_STATE_DIR: 'x' }), deep, choice).dir).toBe(join(deep, 'x'));
    // A variant named by JUDGELOOP_CONFIG keeps the main store (the file found upwards), unless it says state_dir.
    write(file, {});
    const variant = join(top, 'a', 'variant.json');
    write(variant, { judge: { model: 'haiku' } });
    const viaEnv = { file: variant, via: 'env' as const };
    expect(chooseStateDir(readEnv({}), deep, viaEnv)).toEqual({
      dir: join(top, 'state'),
      via: 'beside-file',
      file: variant,
    });
    expect(chooseStateDir(readEnv({ HOME: '/h' }), top + '/..', viaEnv)).toEqual({
      dir: '/h/.local/state/judgeloop',
      via: 'user',
      file: variant,
    });
    // The same file by --config is the project's own: state beside it.
    expect(chooseStateDir(readEnv({}), deep, { file: variant, via: 'flag' }).dir).toBe(join(top, 'a', 'state'));
    write(variant, { state_dir: '../v-state' });
    expect(chooseStateDir(readEnv({}), deep, viaEnv)).toEqual({
      dir: join(top, 'v-state'),
      via: 'file',
      file: variant,
    });
    write(file, { state_dir: 3 });
    expect(() => chooseStateDir(readEnv({}), deep, choice)).toThrow(
      `config file ${file}: /state_dir: must be a non-empty string`,
    );
  });
});

describe('precedence: defaults < file < JUDGE_* env < flags', () => {
  it('each layer overrides the one below, key by key', () => {
    const { top, deep } = tree();
    write(join(top, 'judgeloop.json'), {
      judge: { enabled: true, model: 'sonnet', max_per_hour: 5 },
      collector: { commands: { test: 'npm test' } },
    });
    const env = readEnv({ JUDGE_MODEL: 'haiku' });
    const cfg = loadConfig({ env, cwd: deep, overrides: { judge: { max_per_hour: 7 } } });
    expect(cfg.judge.enabled).toBe(true);
    expect(cfg.judge.model).toBe('haiku');
    expect(cfg.judge.max_per_hour).toBe(7);
    expect(cfg.collector.commands.test).toBe('npm test');
    expect(cfg.collector.commands.build).toBe(null);
    const sources = Object.fromEntries(
      configSources(readConfigLayers({ env, cwd: deep, overrides: { judge: { max_per_hour: 7 } } })).map((v) => [
        v.key,
        v.source,
      ]),
    );
    expect(sources['judge.enabled']).toBe(join(top, 'judgeloop.json'));
    expect(sources['judge.model']).toBe('JUDGE_MODEL');
    expect(sources['judge.max_per_hour']).toBe('flag');
    expect(sources['collector.commands.test']).toBe(join(top, 'judgeloop.json'));
    expect(sources['collector.commands.build']).toBe('default');
  });
  it('a found file that is not valid is one line naming it', () => {
    const { top, deep } = tree();
    write(join(top, 'judgeloop.json'), '{"judge": ');
    expect(() => loadConfig({ env: readEnv({}), cwd: deep })).toThrow(
      new RegExp(`^config file ${join(top, 'judgeloop.json')}: not valid JSON`),
    );
    write(join(top, 'judgeloop.json'), { judge: { enabled: 'yes' } });
    expect(() => loadConfig({ env: readEnv({}), cwd: deep })).toThrow(
      new RegExp(`^config file ${join(top, 'judgeloop.json')}: /judge/enabled: must be boolean$`),
    );
  });
  it('isInside resolves symlinks and does not confuse prefixes', () => {
    const { top } = tree();
    mkdirSync(join(top, 'wt'));
    mkdirSync(join(top, 'wt2'));
    expect(isInside(join(top, 'wt', 'judgeloop.json'), join(top, 'wt'))).toBe(true);
    expect(isInside(join(top, 'wt2', 'judgeloop.json'), join(top, 'wt'))).toBe(false);
    expect(isInside(join(top, 'wt', 'not', 'yet', 'state'), join(top, 'wt'))).toBe(true);
  });
});

describe('bin/config', () => {
  it('--show prints every value and its source; --state-dir and --file print one path', async () => {
    const { top, deep } = tree();
    write(join(top, 'judgeloop.json'), { judge: { enabled: true }, state_dir: 'st' });
    const env = cleanEnv(top, { JUDGE_MODEL: 'sonnet' });
    const show = await runProc(join(BIN, 'config'), ['--show'], { cwd: deep, env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(
      `# config file: ${join(top, 'judgeloop.json')} (found from the current folder upwards)`,
    );
    expect(show.stdout).toContain(`# state dir:   ${join(top, 'st')} (state_dir of the config file)`);
    expect(show.stdout).toContain(`judge.enabled = true  # ${join(top, 'judgeloop.json')}\n`);
    expect(show.stdout).toContain('judge.model = "sonnet"  # JUDGE_MODEL\n');
    expect(show.stdout).toContain('judge.phase = 1  # default\n');
    const json = JSON.parse((await runProc(join(BIN, 'config'), ['--show', '--json'], { cwd: deep, env })).stdout);
    expect(json.state_dir).toBe(join(top, 'st'));
    expect(json.values.find((v: { key: string }) => v.key === 'judge.enabled')).toEqual({
      key: 'judge.enabled',
      value: true,
      source: join(top, 'judgeloop.json'),
    });
    expect((await runProc(join(BIN, 'config'), ['--state-dir'], { cwd: deep, env })).stdout).toBe(
      `${join(top, 'st')}\n`,
    );
    expect((await runProc(join(BIN, 'config'), ['--file'], { cwd: deep, env })).stdout).toBe(
      `${join(top, 'judgeloop.json')}\n`,
    );
    const none = await runProc(join(BIN, 'config'), [], { cwd: deep, env });
    expect(none.code).toBe(2);
  });
});
