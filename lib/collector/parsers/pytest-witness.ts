// Our pytest plugin, loaded into the graded run from its report folder: a phase that raised reported passed, or a
// runner function replaced in the run, means the code under test rewrote results from inside (design: collector.md).
export const WITNESS_MODULE = 'judgeloop_witness';
export const WITNESS_FILE = 'witness.txt';
export const WITNESS_MARK = "judgeloop: pytest witness loaded (judgeloop's check of the runner's results)";
/** Set for the pytest judgeloop starts; the witness takes it out of the environment, so a pytest a test starts is not it. */
export const WITNESS_MAIN = 'JUDGELOOP_WITNESS_MAIN';

export const WITNESS_PY = `# judgeloop's witness: a phase that raised reported passed, or the runner's functions replaced in the run.
import os

import pytest

# The run judgeloop started, and its xdist workers; a pytest that a test starts (without the flag) writes nothing.
_main = os.environ.pop("${WITNESS_MAIN}", "") == "1"
_active = _main or "PYTEST_XDIST_WORKER" in os.environ
_out = os.open(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "${WITNESS_FILE}"),
    os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    0o644,
)
if _main:
    os.write(_out, b"loaded\\n")
    # Printed before pytest captures anything: code under test can delete the file above, not unprint this.
    os.write(2, b"${WITNESS_MARK}\\n")
_raised = {}
# Outcomes as pytest's summary counts them: a call passed (an xpass too) or failed, a setup or teardown that failed
# is an error.
_seen = {"passed": 0, "failed": 0, "error": 0}


def _note(nodeid, when, kind):
    os.write(_out, ("rewritten\\t%s\\t%s\\t%s\\n" % (nodeid, when, kind)).encode("utf-8", "replace"))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _active or call.excinfo is None:
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
    if report.when == "call" and report.outcome in _seen:
        _seen[report.outcome] += 1
    elif report.outcome == "failed":
        _seen["error"] += 1


def _runner_parts():
    import unittest

    import _pytest.reports
    import _pytest.runner

    owners = [
        (_pytest.reports.TestReport, ["from_item_and_call", "_to_json", "__init__"]),
        (_pytest.runner.CallInfo, ["from_call", "__init__"]),
        (_pytest.runner, ["call_and_report", "call_runtest_hook", "runtestprotocol", "check_interactive_exception"]),
        (unittest.TestCase, [n for n in vars(unittest.TestCase) if n.startswith(("assert", "fail", "run"))]),
        (unittest.TestResult, [n for n in vars(unittest.TestResult) if n.startswith(("add", "was", "stop"))]),
    ]
    return {
        "%s.%s" % (getattr(o, "__qualname__", o.__name__), n): (o, n, vars(o).get(n)) for o, ns in owners for n in ns
    }


_parts = {}


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    if _active:
        _parts.update(_runner_parts())


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    for name, (owner, attr, was) in _parts.items():
        if vars(owner).get(attr) is not was:
            os.write(_out, ("replaced\\t%s\\n" % name).encode("utf-8", "replace"))
    if _main:
        os.write(_out, ("finished\\t%(passed)d\\t%(failed)d\\t%(error)d\\n" % _seen).encode())
`;

interface Rewritten {
  id: string;
  when: string;
  raised: string;
}

export interface Witnessed {
  /** The witness's file says it loaded (its first line). */
  loaded: boolean;
  /** Sessions that loaded it, and those it saw end with the outcomes it counted (summed over sessions). */
  sessions: number;
  finished: { sessions: number; counted: number; passed: number; failed: number; errors: number };
  /** Test phases that raised and were reported passed. */
  rewritten: Rewritten[];
  /** The runner's own functions (pytest's reports and calls, unittest's asserts and results) replaced in the run. */
  replaced: string[];
}

export const noWitness = (): Witnessed => ({
  loaded: false,
  sessions: 0,
  finished: { sessions: 0, counted: 0, passed: 0, failed: 0, errors: 0 },
  rewritten: [],
  replaced: [],
});

export function parseWitness(text: string): Witnessed {
  const out = noWitness();
  for (const line of text.split('\n')) {
    if (line === 'loaded') {
      out.loaded = true;
      out.sessions++;
    }
    const [tag, id, when, raised] = line.split('\t');
    if (line === 'finished') out.finished.sessions++; // node: no counts
    if (tag === 'finished' && id !== undefined) {
      const f = out.finished;
      f.sessions++;
      f.counted++;
      f.passed += Number(id);
      f.failed += Number(when);
      f.errors += Number(raised);
    }
    if (tag === 'rewritten' && id && when && raised) out.rewritten.push({ id, when, raised });
    if (tag === 'replaced' && id) out.replaced.push(id);
  }
  return out;
}

/**
 * pytest could not import the witness (a wrapper that drops PYTHONPATH): the run is repeated without it. Never when
 * the witness said it loaded: code under test that prints the import error cannot buy a run without it.
 */
export const witnessNotLoaded = (output: string): boolean =>
  !output.includes(WITNESS_MARK) &&
  output.includes(WITNESS_MODULE) &&
  /ModuleNotFoundError|ImportError|No module named/.test(output);
