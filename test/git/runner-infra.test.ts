// The allow-list read by meaning (pure): which files a runner reads as configuration, the test command's chain, test
// libraries, and the test part of mixed files (Rust test modules, Cargo dev tables, go.mod replaces, doctests).
import { describe, expect, it } from 'vitest';
import { runnerConfigOf, scriptChain, testLibraryOf } from '../../lib/git/runner-infra.js';
import { doctestExamples, rustTestModules, spliceGoMod, spliceRustTests } from '../../lib/git/test-parts.js';
import { spliceTestConfig } from '../../lib/git/test-paths.js';

const reader = (files: Record<string, string>) => async (p: string) => files[p] ?? null;

describe('runner configuration by what each runner reads', () => {
  it.each([
    ['pkg/sub/conftest.py', 'pytest'],
    ['setup.cfg', 'pytest'],
    ['.pytest.ini', 'pytest'],
    ['lib/site.pth', 'python'],
    ['web/vitest.config.e2e.mts', 'vitest'],
    ['vite.config.js', 'vitest'],
    ['vitest.workspace.json', 'vitest'],
    ['jest.config.cjs', 'jest'],
    ['.babelrc.json', 'jest'],
    ['.mocharc.yml', 'mocha'],
    ['go.work', 'go'],
    ['crate/build.rs', 'cargo'],
    ['.cargo/config.toml', 'cargo'],
    ['sub/.cargo/config', 'cargo'],
  ])('%s is %s configuration', (p, runner) => expect(runnerConfigOf(p)).toBe(runner));

  it.each(['src/config.py', 'src/vitest_helpers.ts', 'setup.py', 'src/build.rs.txt', 'cargo/config.rs'])(
    '%s is code',
    (p) => expect(runnerConfigOf(p)).toBeNull(),
  );

  it('vendored code and copies of test libraries are the trusted revision’s; code named like one is not', () => {
    for (const p of [
      'vendor/github.com/stretchr/testify/assert/assertions.go',
      'third_party/expect.py',
      'node_modules/chai/index.js',
      'lib/_pytest/runner.py',
      'src/chai.js',
      'tools/assert/index.js',
      'pluggy/__init__.py',
    ])
      expect(testLibraryOf(p), p).not.toBeNull();
    for (const p of ['src/asserts.py', 'src/expectations.ts', 'vendor.py', 'src/mocking.py'])
      expect(testLibraryOf(p), p).toBeNull();
  });
});

describe('the script chain behind the test command', () => {
  it('npm test: the test script, its pre/post scripts, the scripts it runs and the files they name', async () => {
    const pkg = JSON.stringify({
      scripts: {
        pretest: 'node tools/prepare.mjs',
        test: 'npm run unit && node tools/after.mjs',
        unit: 'node --import ./tools/setup.mjs --test test/',
        build: 'tsc',
      },
    });
    const chain = await scriptChain(
      'npm test',
      reader({ 'package.json': pkg, 'tools/prepare.mjs': '', 'tools/after.mjs': '', 'tools/setup.mjs': '' }),
    );
    expect([...chain.scripts.get('package.json')!].sort()).toEqual(
      ['posttest', 'postunit', 'pretest', 'preunit', 'test', 'unit'].sort(),
    );
    expect([...chain.files].sort()).toEqual(['tools/after.mjs', 'tools/prepare.mjs', 'tools/setup.mjs']);
  });

  it('make test: the Makefile, what it includes, and the scripts its recipes run; in a subfolder with cd', async () => {
    const files = {
      'svc/Makefile': 'include mk/common.mk\n-include $(LOCAL)\ntest:\n\t@./scripts/check.sh\n',
      'svc/mk/common.mk': 'PY = python3\n',
      'svc/scripts/check.sh': '#!/bin/sh\npython3 -m pytest -p helpers.plug tests\n',
      'svc/helpers/plug.py': '',
    };
    const chain = await scriptChain('cd svc && make test', reader(files));
    expect([...chain.files].sort()).toEqual(Object.keys(files).sort());
  });

  it('pytest: -p plugins of the command and of the root configuration, never `no:` ones', async () => {
    const chain = await scriptChain(
      'python3 -m pytest -p no:cacheprovider -p fastcheck',
      reader({
        'fastcheck.py': '',
        'pytest.ini': '[pytest]\naddopts = -p src_plug\n',
        'src/src_plug.py': '',
        'conftest.py': 'pytest_plugins = ["helpers.fixtures"]\n',
        'helpers/fixtures/__init__.py': '',
      }),
    );
    expect([...chain.files].sort()).toEqual(['fastcheck.py', 'helpers/fixtures/__init__.py', 'src/src_plug.py']);
  });

  it('a plain command names nothing; a loop of scripts ends', async () => {
    expect((await scriptChain('go test ./...', reader({}))).files.size).toBe(0);
    const loop = JSON.stringify({ scripts: { test: 'npm run a', a: 'npm test' } });
    const chain = await scriptChain('npm test', reader({ 'package.json': loop }));
    expect(chain.scripts.get('package.json')!.has('a')).toBe(true);
  });
});

const LIB = `pub fn add(a: i32, b: i32) -> i32 {
    a - b
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn adds() {
        let s = "}"; let c = '}'; // }
        assert_eq!(add(1, 2), 3);
    }
}
`;

describe('tests inside code files', () => {
  it('a Rust #[cfg(test)] module, braces in strings, chars and comments skipped', () => {
    const mods = rustTestModules(LIB);
    expect(mods.map((m) => m.name)).toEqual(['tests']);
    expect(LIB.slice(mods[0]!.end)).toBe('\n');
  });

  it("the candidate's code with the trusted test module: a weakened module replaced, a new one removed", () => {
    const cand = LIB.replace('a - b', 'a + b').replace('assert_eq!(add(1, 2), 3);', 'assert!(true);');
    const out = spliceRustTests(cand, LIB)!;
    expect(out).toContain('a + b');
    expect(out).toContain('assert_eq!(add(1, 2), 3);');
    expect(spliceRustTests(LIB.replace('a - b', 'a + b'), LIB)).toBeNull();
    const added = `${LIB.replace('a - b', 'a + b')}\n#[cfg(test)]\nmod more {\n    #[test]\n    fn t() {}\n}\n`;
    expect(spliceRustTests(added, LIB)).not.toContain('mod more');
  });

  it('Cargo.toml dev-dependencies and patches, go.mod replace directives come from the trusted side', () => {
    const base = '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n\n[dev-dependencies]\npretty = "1"\n';
    const cand =
      '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\nregex = "1"\n\n[dev-dependencies]\npretty = { path = "fake" }\n\n[patch.crates-io]\npretty = { path = "fake" }\n';
    const out = spliceTestConfig('Cargo.toml', cand, base)!;
    expect(out).toContain('regex = "1"');
    expect(out).toContain('pretty = "1"');
    expect(out).not.toContain('fake');
    const mod = 'module m\n\nrequire github.com/stretchr/testify v1.9.0\n';
    const hacked = `${mod}require golang.org/x/text v0.1.0\nreplace github.com/stretchr/testify => ./fake\n`;
    expect(spliceGoMod(hacked, mod)).toBe(`${mod}require golang.org/x/text v0.1.0\n`);
    expect(spliceGoMod(`${mod}require golang.org/x/text v0.1.0\n`, mod)).toBeNull();
  });

  it('doctest examples are the lines after >>> up to a blank line', () => {
    const src = 'def f(x):\n    """Double.\n\n    >>> f(2)\n    4\n\n    more text\n    """\n    return 2 * x\n';
    expect(doctestExamples(src)).toEqual(['>>> f(2)', '4']);
  });
});
