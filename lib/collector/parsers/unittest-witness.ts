// Our observer for `python -m unittest`: the command runs our module (per-run name, from judgeloop's folder), which
// installs the pytest witness's checks and then runs unittest itself (design: collector.md, "The observer").
import { UNIVERSAL_PY, WITNESS_FILE } from './pytest-witness.js';

const UNITTEST_WITNESS_PY = `# judgeloop's unittest observer: unittest run under watch (values equal to everything, the tests read by the code
# under test, its own counts, the runner's functions replaced).
import os
import sys
import unittest

_out = os.open(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "${WITNESS_FILE}"),
    os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    0o644,
)
_write = os.write
_getframe = sys._getframe
_realpath = os.path.realpath
_mine = _realpath(__file__)
_stdlib = tuple({_realpath(os.path.dirname(os.__file__))} | {_realpath(p) for p in sys.path if "-packages" in p})
_current = [None]
_tests = set()
_seen = {"passed": 0, "failed": 0, "error": 0}
_busy = [False]


def _line(*parts):
    text = "\\t".join(str(p).replace("\\t", " ").replace("\\n", " ") for p in parts) + "\\n"
    _write(_out, text.encode("utf-8", "replace"))


${UNIVERSAL_PY}

def _compared(first, second, how):
    cur = _current[0]
    if cur is None:
        return
    mod = sys.modules.get(cur[1])
    for side, obj in (("actual", first), ("expected", second)):
        if not _universal(obj):
            continue
        bound = side == "expected" and mod is not None and any(
            v is obj or (type(v) is type(os) and vars(v).get("ANY", None) is obj) for v in list(vars(mod).values())
        )
        if not bound:
            _line("universal", cur[0], how, side, type(obj).__qualname__)


def _audit(event, args):
    if _current[0] is None or _busy[0]:
        return
    if event not in ("open", "sys._getframe", "sys._current_frames", "object.__getattr__"):
        return
    _busy[0] = True
    try:
        if event == "object.__getattr__" and (len(args) < 2 or args[1] not in ("tb_frame", "gi_frame", "cr_frame")):
            return
        f = _getframe(1)
        if event == "open":
            path = args[0] if args else None
            if not isinstance(path, (str, bytes)) or _realpath(os.fsdecode(path)) not in _tests:
                return
            while f is not None and (
                f.f_code.co_filename.startswith("<") or _realpath(f.f_code.co_filename) in (_mine,)
                or _realpath(f.f_code.co_filename).startswith(_stdlib)
            ):
                f = f.f_back
        else:
            while f is not None and _realpath(f.f_code.co_filename) == _mine:
                f = f.f_back
            while f is not None and os.path.basename(f.f_code.co_filename) in ("inspect.py", "traceback.py"):
                f = f.f_back
        who = f and _realpath(f.f_code.co_filename)
        if who and who not in _tests and not who.startswith(_stdlib):
            _line("peeked", _current[0][0], event, who)
    except BaseException:
        pass
    finally:
        _busy[0] = False


_case = unittest.TestCase
_result = unittest.TestResult
for _name in ("assertEqual", "assertDictEqual", "assertListEqual", "assertTupleEqual"):
    _was = vars(_case).get(_name)
    if _was is not None:

        def _eq(self, first, second, *a, __was=_was, __name=_name, **k):
            _compared(first, second, __name)
            return __was(self, first, second, *a, **k)

        setattr(_case, _name, _eq)
_run = _case.run


def _run_watched(self, result=None):
    mod = type(self).__module__
    path = getattr(sys.modules.get(mod), "__file__", None)
    if path:
        _tests.add(_realpath(path))
    _current[0] = (self.id(), mod)
    try:
        return _run(self, result)
    finally:
        _current[0] = None


_case.run = _run_watched
for _name, _kind in (("addSuccess", "passed"), ("addFailure", "failed"), ("addError", "error"), ("addUnexpectedSuccess", "failed")):
    _was = vars(_result)[_name]

    def _count(self, *a, __was=_was, __kind=_kind, **k):
        _seen[__kind] += 1
        return __was(self, *a, **k)

    setattr(_result, _name, _count)
_sub = vars(_result)["addSubTest"]


def _count_sub(self, test, subtest, err, __was=_sub):
    if err is not None:
        _seen["failed" if issubclass(err[0], test.failureException) else "error"] += 1
    return __was(self, test, subtest, err)


_result.addSubTest = _count_sub
_parts = {
    "%s.%s" % (o.__qualname__, n): (o, n, vars(o).get(n))
    for o, ns in (
        (_case, [n for n in vars(_case) if n.startswith(("assert", "fail", "run"))]),
        (_result, [n for n in vars(_result) if n.startswith(("add", "was", "stop"))]),
    )
    for n in ns
}
_line("loaded")
sys.addaudithook(_audit)
sys.argv[0] = "python -m unittest"
try:
    unittest.main(module=None)
finally:
    for _n, (_o, _a, _w) in _parts.items():
        if vars(_o).get(_a) is not _w:
            _line("replaced", _n)
    _line("finished", _seen["passed"], _seen["failed"], _seen["error"])
`;

const UNITTEST = /^(\s*(?:\w+=\S*\s+)*(?:\S*\/)?python[\d.]*\s+(?:-\w+\s+)*)-m\s+unittest\b/;

/** `python -m unittest …` run as our module instead (the same arguments): null for any other command. */
export function unittestWitness(
  command: string,
  dir: string,
  env: NodeJS.ProcessEnv,
): { command: string; files: Record<string, string>; env: Record<string, string> } | null {
  const m = UNITTEST.exec(command);
  if (!m) return null;
  // A name of this run, found first on the path: nothing in the tree can be imported in its place.
  const name = `judgeloop_u_${(dir.split('/').pop() ?? '').replace(/[^A-Za-z0-9]/g, '_')}`;
  return {
    command: `${m[1]}-m ${name}${command.slice(m[0].length)}`,
    files: { [`${name}.py`]: UNITTEST_WITNESS_PY },
    env: { PYTHONPATH: env.PYTHONPATH ? `${dir}:${env.PYTHONPATH}` : dir },
  };
}
