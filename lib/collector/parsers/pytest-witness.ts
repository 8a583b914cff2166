// Our pytest plugin, loaded into the graded run from its report folder: a phase that raised reported passed, or a
// runner function replaced in the run, means the code under test rewrote results from inside (design: collector.md).

/** The witness's module name: per run (from its fresh folder's random name), so no file in the tree can shadow it. */
export const witnessModule = (dir: string): string =>
  `judgeloop_w_${(dir.split('/').pop() ?? '').replace(/[^A-Za-z0-9]/g, '_')}`;
export const WITNESS_FILE = 'witness.txt';
export const WITNESS_MARK = "judgeloop: pytest witness loaded (judgeloop's check of the runner's results)";
/** Set for the pytest judgeloop starts; the witness takes it out of the environment, so a pytest a test starts is not it. */
export const WITNESS_MAIN = 'JUDGELOOP_WITNESS_MAIN';
/** The PYTHONPATH the command had: the witness puts it back, so processes a test starts do not inherit ours. */
export const WITNESS_PATH = 'JUDGELOOP_WITNESS_PATH';

/** Python: `_universal(obj)`, a value equal to a fresh object it has never seen (both observers use it). */
export const UNIVERSAL_PY = `class _Probe:
    pass


def _universal(obj):
    """A value equal to a fresh object it has never seen: equal to everything (mock.ANY, an always-true __eq__)."""
    try:
        return bool(obj == _Probe()) and bool(obj == _Probe())
    except BaseException:
        return False
`;

export const WITNESS_PY = `# judgeloop's witness: a phase that raised reported passed, the runner's functions replaced, a value equal to
# everything compared, or the graded tests' files and frames read by the code under test.
import os
import sys

import pytest

# The run judgeloop started, and its xdist workers; a pytest that a test starts (without the flag) writes nothing.
_main = os.environ.pop("${WITNESS_MAIN}", "") == "1"
_active = _main or "PYTEST_XDIST_WORKER" in os.environ
_was = os.environ.pop("${WITNESS_PATH}", None)
if _was is not None:
    os.environ.pop("PYTHONSAFEPATH", None)
    if _was:
        os.environ["PYTHONPATH"] = _was
    else:
        os.environ.pop("PYTHONPATH", None)
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
_write = os.write
_getframe = sys._getframe
_realpath = os.path.realpath


def _line(*parts):
    text = "\\t".join(str(p).replace("\\t", " ").replace("\\n", " ") for p in parts) + "\\n"
    _write(_out, text.encode("utf-8", "replace"))


def _note(nodeid, when, kind):
    _line("rewritten", nodeid, when, kind)


# The test in its call phase (its id, its module, the files of the graded tests); None outside one.
_current = [None]
_tests = set()
_stdlib = tuple({_realpath(os.path.dirname(os.__file__))} | {_realpath(p) for p in sys.path if "-packages" in p})
_mine = _realpath(__file__)


${UNIVERSAL_PY}

def _bound_by_test(obj):
    cur = _current[0]
    mod = cur and getattr(cur[2], "module", None)
    if mod is None:
        return False
    for v in list(vars(mod).values()):
        if v is obj or (type(v) is type(os) and vars(v).get("ANY", None) is obj):
            return True
    return False


def _compared(left, right, how):
    cur = _current[0]
    if cur is None:
        return
    # The actual value (left by convention) equal to everything; the expected one too, unless the test wrote it.
    for side, obj in (("actual", left), ("expected", right)):
        if _universal(obj) and (side == "actual" or not _bound_by_test(obj)):
            _line("universal", cur[0], how, side, type(obj).__qualname__)


def _watch_asserts():
    import _pytest.assertion.rewrite as rw
    import unittest

    reprcompare = rw._call_reprcompare

    def _call_reprcompare(ops, results, expls, each_obj):
        for i, op in enumerate(ops):
            if op in ("==", "!=") and i + 1 < len(each_obj):
                _compared(each_obj[i], each_obj[i + 1], "assert " + op)
        # A passing comparison: its plain explanation, not pytest's diff of the two sides (the pass hook would pay
        # for that on every passing assert).
        try:
            if results and all(results):
                return expls[len(results) - 1]
        except BaseException:
            pass
        return reprcompare(ops, results, expls, each_obj)

    rw._call_reprcompare = _call_reprcompare
    for name in ("assertEqual", "assertEquals", "assertDictEqual", "assertListEqual", "assertTupleEqual"):
        was = vars(unittest.TestCase).get(name)
        if was is None:
            continue

        def _eq(self, first, second, *a, __was=was, __name=name, **k):
            _compared(first, second, __name)
            return __was(self, first, second, *a, **k)

        setattr(unittest.TestCase, name, _eq)


def _caller(skip_stdlib):
    """The first frame outside this file (and, if asked, outside the standard library and installed packages)."""
    f = _getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        if not name.startswith("<"):
            real = _realpath(name)
            if real != _mine and not (skip_stdlib and real.startswith(_stdlib)):
                return real
        f = f.f_back
    return None


_busy = [False]


def _audit(event, args):
    cur = _current[0]
    if cur is None or _busy[0]:
        return
    if event not in ("open", "sys._getframe", "sys._current_frames", "object.__getattr__"):
        return
    _busy[0] = True
    try:
        if event == "object.__getattr__" and (len(args) < 2 or args[1] not in ("tb_frame", "gi_frame", "cr_frame")):
            return
        if event == "open":
            path = args[0] if args else None
            if not isinstance(path, (str, bytes)) or _realpath(os.fsdecode(path)) not in _tests:
                return
            who = _caller(True)
        else:
            # Frames asked for by the standard library's own code (logging, warnings) are not the code under test's.
            f = _getframe(1)
            while f is not None and _realpath(f.f_code.co_filename) == _mine:
                f = f.f_back
            while f is not None and os.path.basename(f.f_code.co_filename) in ("inspect.py", "traceback.py"):
                f = f.f_back
            who = f and _realpath(f.f_code.co_filename)
            if not who or who.startswith(_stdlib):
                return
        if who and who not in _tests and not os.path.basename(who).startswith("conftest") and not who.startswith(_stdlib):
            _line("peeked", cur[0], event, who)
    except BaseException:
        pass
    finally:
        _busy[0] = False


if _active:
    try:
        _watch_asserts()
    except BaseException:
        _line("unwatched", "assertions")
    sys.addaudithook(_audit)


def pytest_assertion_pass(item, lineno, orig, expl):
    # Its presence makes pytest build each passing assertion's explanation: that calls the comparison seen above.
    pass


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    _current[0] = (item.nodeid, str(item.path), item) if _active else None
    try:
        yield
    finally:
        _current[0] = None


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    for item in session.items:
        try:
            _tests.add(_realpath(str(item.path)))
        except BaseException:
            pass


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
    import _pytest.assertion.rewrite

    owners = [
        (_pytest.reports.TestReport, ["from_item_and_call", "_to_json", "__init__"]),
        (_pytest.runner.CallInfo, ["from_call", "__init__"]),
        (_pytest.runner, ["call_and_report", "call_runtest_hook", "runtestprotocol", "check_interactive_exception"]),
        (_pytest.assertion.rewrite, ["_call_reprcompare", "_call_assertion_pass", "_check_if_assertion_pass_impl"]),
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
            _line("replaced", name)
    if _main:
        _line("finished", _seen["passed"], _seen["failed"], _seen["error"])
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
  /** A compared value equal to everything (mock.ANY, an always-true __eq__): the test, the comparison, the side, its type. */
  universal: { id: string; how: string; side: string; type: string }[];
  /** The graded tests' files opened, or frames taken, by the code under test during a test: the test, event, file. */
  peeked: { id: string; event: string; file: string }[];
}

export const noWitness = (): Witnessed => ({
  loaded: false,
  sessions: 0,
  finished: { sessions: 0, counted: 0, passed: 0, failed: 0, errors: 0 },
  rewritten: [],
  replaced: [],
  universal: [],
  peeked: [],
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
    const [, , , side, type] = line.split('\t');
    if (tag === 'universal' && id && when && side && type) out.universal.push({ id, how: when, side, type });
    if (tag === 'peeked' && id && when && raised) out.peeked.push({ id, event: when, file: raised });
  }
  return out;
}
