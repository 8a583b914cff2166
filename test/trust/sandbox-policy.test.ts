// What the deny-by-default policy shows for one PATH entry and hides for one config file (one line per case).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configHides, pathExposure, toolchainRoots } from '../../lib/process/sandbox.js';
import { tempDir } from '../helpers/repo.js';

const H = '/home/u';
const roots = toolchainRoots({ PYENV_ROOT: '/srv/pyenv' }, H);
const show = (dir: string, privates: string[] = []) => pathExposure(dir, roots, H, privates);

describe('pathExposure', () => {
  it('a toolchain root comes whole, rustup with cargo', () => {
    expect(show(`${H}/.cargo/bin`)).toEqual([`${H}/.cargo`, `${H}/.rustup`]);
    expect(show(`${H}/.pyenv/shims`)).toEqual([`${H}/.pyenv`]);
    expect(show(`${H}/.nvm/versions/node/v20.1.0/bin`)).toEqual([`${H}/.nvm`]);
    expect(show('/srv/pyenv/bin')).toEqual(['/srv/pyenv']);
  });
  it('any other entry under $HOME: that folder alone, never ~/.config or ~/.local', () => {
    expect(show(`${H}/.config/tool/bin`)).toEqual([`${H}/.config/tool/bin`]);
    expect(show(`${H}/.local/bin`)).toEqual([`${H}/.local/bin`]);
  });
  it('/opt/<tool>/bin brings /opt/<tool>; system folders are bound already', () => {
    expect(show('/opt/go/bin')).toEqual(['/opt/go']);
    expect(show('/usr/local/bin')).toEqual([]);
    expect(show('/bin')).toEqual([]);
  });
  it('never /, $HOME or a folder holding it or a private path; a relative entry is nothing', () => {
    expect(show('/')).toEqual([]);
    expect(show(H)).toEqual([]);
    expect(show('/home')).toEqual([]);
    expect(show('/data', ['/data/state'])).toEqual([]);
    expect(show('node_modules/.bin')).toEqual([]);
  });
});

describe('configHides', () => {
  it('the config file’s own folder is hidden whole (judgeloop.env with it)', () => {
    expect(configHides('/srv/jl/judgeloop.json', H)).toEqual(['/srv/jl']);
  });
  it('in $HOME or a system folder: the file and the judgeloop / .env files beside it', () => {
    const home = tempDir('judgeloop-home-');
    mkdirSync(join(home, 'sub'));
    for (const f of ['judgeloop.json', 'judgeloop.env', 'app.env', '.bashrc']) writeFileSync(join(home, f), '');
    expect(configHides(join(home, 'judgeloop.json'), home).sort()).toEqual(
      [join(home, 'app.env'), join(home, 'judgeloop.env'), join(home, 'judgeloop.json')].sort(),
    );
  });
});
