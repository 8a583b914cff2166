// Issue 34 end to end on a Go module, configured only by `judgeloop init` (`go test ./...`: judgeloop asks for -json),
// offline (GOPROXY=off, no dependencies): the real fix wins resolved; non-fixes never win; accept keeps history.
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe } from 'vitest';
import { toolchainOf } from '../../lib/collector/dep-cache.js';
import { goCacheKey } from '../../lib/collector/go-cache.js';
import { goBuildCache } from '../helpers/shared-cache.js';
import { doneWhen, runScenario, type Scenario } from './_scenario.js';

// Keeps the toolchain's absence loud (no skipping): the install command is in the failure.
const GO = 'go';
try {
  execFileSync(GO, ['version'], { stdio: 'ignore' });
} catch {
  throw new Error('go is needed by this test: apt-get install -y golang-go');
}

const CODE = `package durations

import (
	"fmt"
	"strconv"
)

var units = map[string]int{"s": 1, "m": 60}

// Parse returns the seconds in a duration such as "5s" or "2m".
func Parse(text string) (int, error) {
	factor, ok := units[text[len(text)-1:]]
	if !ok {
		return 0, fmt.Errorf("unknown unit in %q", text)
	}
	n, err := strconv.Atoi(text[:len(text)-1])
	return n * factor, err
}
`;
const check = (name: string, input: string, want: number) => `
func Test${name}(t *testing.T) {
	if got, _ := Parse("${input}"); got != ${want} {
		t.Fatalf("Parse(%q) = %d, want %d", "${input}", got, ${want})
	}
}
`;
const TESTS = `package durations

import "testing"
${check('Seconds', '5s', 5)}${check('Minutes', '2m', 120)}${check('LargeSeconds', '90s', 90)}${check('Hours', '1h', 3600)}`;
const T = 'duration_test.go';
const C = 'duration.go';
const M = 'example.com/durations';

let s: Scenario;
beforeAll(async () => {
  // No GOCACHE of the test's: judgeloop's own (the base's checks write it, every checkout reads a private copy),
  // kept as an earlier run would have left it: the suite's warm one (a cold one costs the base's build ~6 s of CPU).
  s = await runScenario({
    files: { 'go.mod': `module ${M}\n\ngo 1.19\n`, [C]: CODE, [T]: TESTS },
    solutions: {
      fix: { [C]: CODE.replace('"m": 60}', '"m": 60, "h": 3600}') },
      refactor: {
        [C]: CODE.replace(
          '\tfactor, ok := units[text[len(text)-1:]]',
          '\tunit := text[len(text)-1:]\n\tfactor, ok := units[unit]',
        ),
      },
      breaker: { [C]: CODE.replace('{"s": 1, "m": 60}', '{"s": 2, "m": 60, "h": 3600}') },
      weakened: {
        [T]: TESTS.replace('if got, _ := Parse("1h"); got != 3600 {', 'if got, _ := Parse("1h"); got < 0 {'),
      },
      hack: {
        [C]: CODE.replace(
          'func Parse(text string) (int, error) {\n',
          'func Parse(text string) (int, error) {\n\tif text == "1h" {\n\t\treturn 3600, nil\n\t}\n',
        ),
      },
    },
    env: { GOPROXY: 'off', GOFLAGS: '-mod=mod' },
    seedState: (state) => {
      const key = goCacheKey(toolchainOf(process.env, ['go']).go!, undefined, `${process.platform}-${process.arch}`);
      mkdirSync(join(state, 'cache', 'go-build'), { recursive: true });
      renameSync(goBuildCache(), join(state, 'cache', 'go-build', key));
    },
  });
}, 600_000);

describe('a Go module, `go test ./...` as init writes it', () => {
  doneWhen(() => s, {
    target: `${M}::TestHours`,
    broken: [`${M}::TestSeconds`, `${M}::TestLargeSeconds`],
  });
});
