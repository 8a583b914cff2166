// Issue 34 end to end on a pytest project (requirements.txt, pytest from the machine), configured only by `judgeloop
// init`: the real fix wins resolved; non-fixes never win, score 20 below, rate below a real attempt; accept keeps history.
import { beforeAll, describe } from 'vitest';
import { doneWhen, runScenario, type Scenario } from './_scenario.js';

const CODE = `UNITS = {"s": 1, "m": 60}


def parse(text):
    """Seconds in a duration such as '5s' or '2m'."""
    return int(text[:-1]) * UNITS[text[-1]]
`;
const TESTS = `from duration import parse


def test_seconds():
    assert parse("5s") == 5


def test_minutes():
    assert parse("2m") == 120


def test_large_seconds():
    assert parse("90s") == 90


def test_hours():
    assert parse("1h") == 3600
`;
const T = 'tests/test_duration.py';
const C = 'duration.py';

let s: Scenario;
beforeAll(async () => {
  s = await runScenario({
    files: {
      // No third-party dependency: the fetch (pip download) needs no network, the venv sees the machine's pytest.
      'requirements.txt': '# no third-party dependencies; pytest comes with the machine\n',
      '.gitignore': '.venv\n.judgeloop-deps\n__pycache__\n',
      [C]: CODE,
      [T]: TESTS,
    },
    solutions: {
      fix: { [C]: CODE.replace('"m": 60}', '"m": 60, "h": 3600}') },
      refactor: {
        [C]: CODE.replace(
          '    return int(text[:-1]) * UNITS[text[-1]]',
          '    amount, unit = int(text[:-1]), text[-1]\n    return amount * UNITS[unit]',
        ),
      },
      breaker: { [C]: CODE.replace('{"s": 1, "m": 60}', '{"s": 2, "m": 60, "h": 3600}') },
      weakened: { [T]: TESTS.replace('assert parse("1h") == 3600', 'assert callable(parse)') },
      hack: { [C]: CODE.replace('    """Seconds', '    if text == "1h":\n        return 3600\n    """Seconds') },
    },
    env: { PATH: process.env.PATH ?? '' },
  });
}, 600_000);

describe('a pytest project (requirements.txt), `.venv/bin/python -m pytest` as init writes it', () => {
  doneWhen(() => s, {
    target: `${T}::test_hours`,
    broken: [`${T}::test_seconds`, `${T}::test_large_seconds`],
  });
});
