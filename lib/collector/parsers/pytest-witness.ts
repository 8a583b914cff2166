// A pytest plugin of ours, loaded into the graded run from its report folder: a test phase that raised but is
// reported passed had its report rewritten inside the run (by the code under test: docs/design/collector.md).
export const WITNESS_MODULE = 'judgeloop_witness';
export const WITNESS_FILE = 'witness.txt';

export const WITNESS_PY = `# judgeloop's witness: a test phase that raised but is reported passed was rewritten inside the run.
import os

import pytest

_out = os.open(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "${WITNESS_FILE}"),
    os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    0o644,
)
_raised = {}


def _note(nodeid, when, kind):
    os.write(_out, ("rewritten\\t%s\\t%s\\t%s\\n" % (nodeid, when, kind)).encode("utf-8", "replace"))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.excinfo is None:
        return
    try:
        report = outcome.get_result()
    except BaseException:
        return
    if report.outcome == "passed":
        _note(item.nodeid, call.when, call.excinfo.typename)
    else:
        _raised[(item.nodeid, call.when)] = call.excinfo.typename


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report):
    kind = _raised.pop((report.nodeid, report.when), None)
    if kind is not None and report.outcome == "passed":
        _note(report.nodeid, report.when, kind)
`;

export interface Rewritten {
  id: string;
  when: string;
  raised: string;
}

/** The witness's lines: each test phase that raised and was reported passed. */
export function parseWitness(text: string): Rewritten[] {
  const out: Rewritten[] = [];
  for (const line of text.split('\n')) {
    const [tag, id, when, raised] = line.split('\t');
    if (tag === 'rewritten' && id && when && raised) out.push({ id, when, raised });
  }
  return out;
}

/** pytest could not import the witness (a wrapper that drops PYTHONPATH): the run is repeated without it. */
export const witnessNotLoaded = (output: string): boolean =>
  output.includes(WITNESS_MODULE) && /ModuleNotFoundError|ImportError|No module named/.test(output);
