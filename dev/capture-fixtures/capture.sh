#!/bin/bash
# Runs the real tools on the small projects in ./projects and writes their combined stdout+stderr
# to test/fixtures/output/<runner>/<case>.txt. Needs the tools (see README.md); CI never runs this.
set -u
here="$(cd "$(dirname "$(readlink -f "$0")")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${OUT:-$repo/test/fixtures/output}"
tools="${CAPTURE_TOOLS:-/tmp/capture}"   # an npm project with jest, vitest, mocha, tap, eslint, biome, typescript
work="${CAPTURE_WORK:-/tmp/capture-work}"
only="${1:-}"
export PATH="$tools/node_modules/.bin:$PATH"
# vitest colours even off a terminal, hence NO_COLOR=1 on its plain cases. No CI variable: supports-color turns colour on under CI; colour comes only from the explicit flags below.
unset CI FORCE_COLOR NO_COLOR CLICOLOR_FORCE

# cap RUNNER CASE CMD... : run CMD in the current dir, keep stdout+stderr interleaved as the user sees it.
# A fixture already captured is kept (tools drift; expected.json was checked against it): RECAPTURE=1 redoes it.
have() { [ -z "${RECAPTURE:-}" ] && [ -f "$out/$1/$2.txt" ]; }
cap() {
  local runner="$1" name="$2"; shift 2
  have "$runner" "$name" && return 0
  mkdir -p "$out/$runner"
  "$@" > "$out/$runner/$name.txt" 2>&1
  echo "$runner/$name: exit $? ($(wc -c < "$out/$runner/$name.txt") bytes)"
}
# fresh PROJECT: copy projects/PROJECT to a clean work dir and cd there.
fresh() {
  rm -rf "${work:?}/$1"; mkdir -p "$work/$1"; rmdir "$work/$1"; cp -r "$here/projects/$1" "$work/$1"; cd "$work/$1" || exit 1
  ln -s "$tools/node_modules" node_modules
}
# capr RUNNER CASE EXT CMD... : like cap, and the tool also writes its machine-readable report to
# <case>.report.<EXT> next to the console text (every @REPORT@ in CMD is replaced by that path).
capr() {
  local runner="$1" name="$2" ext="$3"; shift 3
  have "$runner" "$name" && return 0
  mkdir -p "$out/$runner"
  local report="$out/$runner/$name.report.$ext" args=() a
  rm -f "$report"
  for a in "$@"; do args+=("${a//@REPORT@/$report}"); done
  "${args[@]}" > "$out/$runner/$name.txt" 2>&1
  echo "$runner/$name: exit $? ($(wc -c < "$out/$runner/$name.txt") bytes; report $( [ -f "$report" ] && wc -c < "$report" || echo none))"
}
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

if want jest; then
  fresh jest
  cap jest basic jest basic.test.js pass.test.js
  cap jest basic-color env FORCE_COLOR=1 jest --colors basic.test.js pass.test.js
  cap jest verbose jest --verbose basic.test.js pass.test.js
  cap jest all-pass jest pass.test.js
  cap jest load-error jest pass.test.js broken.test.js
  cap jest timeout jest timeout.test.js
  cap jest noisy jest noisy.test.js
  cap jest no-tests jest --passWithNoTests nothing-matches
  cap jest many jest many.test.js pass.test.js
  capr jest spoof json jest --json --outputFile=@REPORT@ --globalTeardown ./spoof-teardown.cjs spoof.test.js
  capr jest hook json jest --json --outputFile=@REPORT@ hook.test.js
  capr jest segfault json jest --json --outputFile=@REPORT@ segfault.test.js pass.test.js
  capr jest nested json jest --json --outputFile=@REPORT@ nested.test.js
  capr jest basic-report json jest --json --outputFile=@REPORT@ basic.test.js pass.test.js
  cap jest no-test-files jest nothing-matches
fi
if want vitest; then
  fresh vitest
  cap vitest basic env NO_COLOR=1 vitest run basic.test.js pass.test.js
  cap vitest basic-color env FORCE_COLOR=1 vitest run basic.test.js pass.test.js
  cap vitest verbose env NO_COLOR=1 vitest run --reporter=verbose basic.test.js pass.test.js
  cap vitest all-pass env NO_COLOR=1 vitest run pass.test.js
  cap vitest load-error env NO_COLOR=1 vitest run pass.test.js broken.test.js
  cap vitest timeout env NO_COLOR=1 vitest run timeout.test.js
  cap vitest crash env NO_COLOR=1 vitest run pass.test.js crash.test.js
  cap vitest worker-killed env NO_COLOR=1 vitest run pass.test.js kill.test.js
  cap vitest noisy env NO_COLOR=1 vitest run noisy.test.js
  cap vitest no-tests env NO_COLOR=1 vitest run --passWithNoTests nothing-matches
  cap vitest many env NO_COLOR=1 vitest run many.test.js pass.test.js
  cap junit vitest-basic vitest run --reporter=junit basic.test.js pass.test.js
  capr vitest spoof xml env NO_COLOR=1 vitest run --config vitest.spoof.config.js --reporter=default --reporter=junit --outputFile.junit=@REPORT@ spoof.test.js
  capr vitest hook xml env NO_COLOR=1 vitest run --reporter=default --reporter=junit --outputFile.junit=@REPORT@ hook.test.js
  capr vitest segfault xml env NO_COLOR=1 vitest run --reporter=default --reporter=junit --outputFile.junit=@REPORT@ pass.test.js segfault.test.js
  capr vitest nested xml env NO_COLOR=1 vitest run --reporter=default --reporter=junit --outputFile.junit=@REPORT@ nested.test.js
  capr vitest basic-report xml env NO_COLOR=1 vitest run --reporter=default --reporter=junit --outputFile.junit=@REPORT@ basic.test.js pass.test.js
  cap vitest no-test-files env NO_COLOR=1 vitest run nothing-matches
fi
if want mocha; then
  fresh mocha
  cap mocha spec mocha basic.spec.cjs pass.spec.cjs
  cap mocha spec-color mocha --color basic.spec.cjs pass.spec.cjs
  cap mocha dot mocha --reporter dot basic.spec.cjs pass.spec.cjs
  cap mocha tap mocha --reporter tap basic.spec.cjs pass.spec.cjs
  cap mocha json mocha --reporter json basic.spec.cjs pass.spec.cjs
  cap mocha all-pass mocha pass.spec.cjs
  cap mocha load-error mocha pass.spec.cjs broken.spec.cjs
  cap mocha timeout mocha timeout.spec.cjs
  cap mocha hook-failure mocha hook.spec.cjs pass.spec.cjs
  cap mocha noisy mocha noisy.spec.cjs
  capr mocha spoof json sh -c 'mocha spoof.spec.cjs; mocha --reporter json --reporter-option output=@REPORT@ spoof.spec.cjs >/dev/null 2>&1'
  capr mocha nested json sh -c 'mocha nested.spec.cjs; mocha --reporter json --reporter-option output=@REPORT@ nested.spec.cjs >/dev/null 2>&1'
  capr mocha after-hook json sh -c 'mocha after-hook.spec.cjs pass.spec.cjs; mocha --reporter json --reporter-option output=@REPORT@ after-hook.spec.cjs pass.spec.cjs >/dev/null 2>&1'
fi
if want node-test; then
  fresh nodetest
  cap node-test spec node --test --test-reporter=spec basic.test.mjs pass.test.mjs
  cap node-test spec-color env FORCE_COLOR=1 node --test --test-reporter=spec basic.test.mjs pass.test.mjs
  cap node-test tap node --test --test-reporter=tap basic.test.mjs pass.test.mjs
  cap node-test all-pass node --test --test-reporter=spec pass.test.mjs
  cap node-test timeout node --test --test-reporter=spec timeout.test.mjs
  cap node-test timeout-tap node --test --test-reporter=tap timeout.test.mjs
  cap node-test crash node --test --test-reporter=spec pass.test.mjs crash.test.mjs
  cap node-test load-error node --test --test-reporter=spec pass.test.mjs broken.test.mjs
  cap node-test worker-killed node --test --test-reporter=spec pass.test.mjs kill.test.mjs
  cap node-test noisy node --test --test-reporter=spec noisy.test.mjs
  cap node-test no-tests node --test --test-reporter=spec nothing-matches-*.mjs
  capr node-test spoof xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ spoof.test.mjs
  capr node-test spoof-tap xml node --test --test-reporter=tap --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ spoof.test.mjs
  capr node-test nested xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ nested.test.mjs
  capr node-test hook xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ hook.test.mjs
  capr node-test segfault xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ pass.test.mjs segfault.test.mjs
  capr node-test subtests xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ subtests.test.mjs
  capr node-test abort xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ pass.test.mjs abort.test.mjs
  capr node-test exit0 xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ pass.test.mjs exit0.test.mjs
  capr node-test basic-report xml node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=@REPORT@ basic.test.mjs pass.test.mjs
fi
if want node-tap; then
  fresh nodetap
  # tap rebuilds its runner when the plugin list changes and that run still uses the old one: warm it up first
  tap --disable-coverage --plugin=!@tapjs/typescript pass.test.mjs >/dev/null 2>&1
  cap node-tap basic tap --disable-coverage --plugin=!@tapjs/typescript basic.test.mjs pass.test.mjs
  cap node-tap basic-color env FORCE_COLOR=1 tap --color --disable-coverage --plugin=!@tapjs/typescript basic.test.mjs pass.test.mjs
  cap node-tap all-pass tap --disable-coverage --plugin=!@tapjs/typescript pass.test.mjs
  cap node-tap tap-reporter tap --disable-coverage --plugin=!@tapjs/typescript --reporter=tap basic.test.mjs pass.test.mjs
  cap tap node-tap-raw node basic.test.mjs
  cap node-tap spoof tap --disable-coverage --plugin=!@tapjs/typescript spoof.test.mjs
  cap node-tap load-crash tap --disable-coverage --plugin=!@tapjs/typescript pass.test.mjs load-crash.test.mjs
  # tap's TypeScript plugin crashes under TypeScript 7 (no ts.sys): every file fails before running a test
  tap --disable-coverage pass.test.mjs >/dev/null 2>&1
  cap node-tap plugin-crash tap --disable-coverage pass.test.mjs
fi
if want pytest; then
  fresh pytest
  for v in qq q default v vv; do
    flag="-$v"; [ "$v" = default ] && flag=""
    cap pytest "basic-$v" python3 -m pytest -p no:cacheprovider $flag test_basic.py test_pass.py
  done
  cap pytest basic-color python3 -m pytest -p no:cacheprovider --color=yes test_basic.py test_pass.py
  cap pytest rA python3 -m pytest -p no:cacheprovider -rA test_basic.py test_pass.py
  cap pytest xdist python3 -m pytest -p no:cacheprovider -n 2 test_basic.py test_pass.py
  cap pytest xdist-v python3 -m pytest -p no:cacheprovider -n 2 -v test_basic.py test_pass.py
  cap pytest all-pass python3 -m pytest -p no:cacheprovider test_pass.py
  cap pytest collection-error python3 -m pytest -p no:cacheprovider test_pass.py test_broken.py
  cap pytest collection-error-continue python3 -m pytest -p no:cacheprovider --continue-on-collection-errors test_pass.py test_broken.py
  cap pytest teardown-error python3 -m pytest -p no:cacheprovider test_teardown.py test_pass.py
  cap pytest noisy python3 -m pytest -p no:cacheprovider -s test_noisy.py
  cap pytest no-tests python3 -m pytest -p no:cacheprovider -k nothing_matches test_pass.py
  cap pytest crash python3 -m pytest -p no:cacheprovider -v test_crash.py
  python3 gen_many.py 20000
  cap pytest many-q python3 -m pytest -p no:cacheprovider -q test_many.py
  python3 gen_many.py 2000
  cap pytest many-v python3 -m pytest -p no:cacheprovider -v test_many.py
  cap junit pytest-basic sh -c 'python3 -m pytest -p no:cacheprovider -q --junitxml=r.xml test_basic.py test_pass.py >/dev/null 2>&1; cat r.xml'
  capr pytest spoof xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ test_spoof.py
  capr pytest spoof-q xml python3 -m pytest -p no:cacheprovider -q --junitxml=@REPORT@ test_spoof.py
  capr pytest spoof-v xml python3 -m pytest -p no:cacheprovider -v --junitxml=@REPORT@ test_spoof.py
  capr pytest segfault xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ test_segfault.py
  capr pytest subtests xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ test_subtests.py
  capr pytest subtests-v xml python3 -m pytest -p no:cacheprovider -v --junitxml=@REPORT@ test_subtests.py
  capr pytest xfail xml python3 -m pytest -p no:cacheprovider -rA --junitxml=@REPORT@ test_xfail.py
  capr pytest basic-report xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ test_basic.py test_pass.py
  capr pytest no-tests-report xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ -k nothing_matches test_pass.py
  # issue 21: a crashing test is named; a unittest subTest failing under pytest 9 (which prints the test PASSED)
  cap pytest segfault-v python3 -m pytest -p no:cacheprovider -v test_segfault.py
  cap pytest abort python3 -m pytest -p no:cacheprovider test_abort.py
  cap pytest abort-v python3 -m pytest -p no:cacheprovider -v test_abort.py
  cap pytest exit-default python3 -m pytest -p no:cacheprovider test_crash.py
  capr pytest usubtests xml python3 -m pytest -p no:cacheprovider --junitxml=@REPORT@ test_usubtests.py
  capr pytest usubtests-v xml python3 -m pytest -p no:cacheprovider -v --junitxml=@REPORT@ test_usubtests.py
fi
if want unittest; then
  fresh unittest
  cap unittest basic python3 -m unittest test_basic test_pass
  cap unittest verbose python3 -m unittest -v test_basic test_pass
  cap unittest all-pass python3 -m unittest test_pass
  cap unittest load-error python3 -m unittest test_pass test_broken
  cap unittest setupclass-error python3 -m unittest test_pass test_setupclass
  cap unittest no-tests python3 -m unittest discover -p 'nothing_*.py'
  cap unittest spoof python3 -m unittest test_spoof
  cap unittest subtests python3 -m unittest test_subtests
  cap unittest subtests-v python3 -m unittest -v test_subtests
  cap unittest errors python3 -m unittest test_errors
  cap unittest segfault python3 -m unittest test_pass test_segfault
  cap unittest segfault-v python3 -m unittest -v test_pass test_segfault
fi
if want cargo; then
  fresh cargo
  export CARGO_TARGET_DIR="$work/cargo-target"
  cap cargo all-pass cargo test --color never
  cap cargo failing cargo test --color never --features failing --no-fail-fast
  cap cargo failing-color cargo test --color always --features failing --no-fail-fast
  cap cargo failing-stop cargo test --color never --features failing
  cap cargo compile-error cargo test --color never --features broken
  cap cargo noisy-nocapture cargo test --color never -- --nocapture
  cap cargo abort cargo test --color never --features abort --no-fail-fast
  cap cargo no-tests cargo test --color never -- nothing_matches
  cap cargo ignored-run cargo test --color never -- --include-ignored
  cap cargo spoof cargo test --color never --features spoof --no-fail-fast
  cap cargo spoof-nocapture cargo test --color never --features spoof --no-fail-fast -- --nocapture
  cap cargo segfault cargo test --color never --features segv --no-fail-fast
  unset CARGO_TARGET_DIR
fi
if want go; then
  fresh go
  cap go plain go test ./calc/ ./empty/
  cap go verbose go test -v ./calc/ ./empty/
  cap go json go test -json ./calc/ ./empty/
  cap go failing env CAPTURE_FAIL=1 go test ./calc/ ./empty/
  cap go failing-v env CAPTURE_FAIL=1 go test -v ./calc/
  cap go failing-json env CAPTURE_FAIL=1 go test -json ./calc/
  cap go build-error go test ./calc/ ./broken/
  cap go panic go test ./panics/
  cap go panic-v go test -v ./panics/
  cap go build-error-json go test -json ./calc/ ./broken/
  cap go no-test-files go test ./empty/
  cap go timeout go test -timeout 1s ./slow/
  cap go timeout-v go test -v -timeout 1s ./slow/
  cap go spoof go test ./spoof/
  cap go spoof-v go test -v ./spoof/
  cap go spoof-json go test -json ./spoof/
  cap go segfault go test ./segv/ ./calc/
  cap go segfault-json go test -json ./segv/ ./calc/
  # issue 21: printed "--- FAIL:" lines (in a passing test, in TestMain before any RUN), a printed RUN in a plain run, t.Run
  cap go fakefail-v go test -v ./fakefail/
  cap go mainfail-v go test -v ./mainfail/
  cap go mainfail-json go test -json ./mainfail/
  cap go runspoof go test ./runspoof/
  cap go subtests go test ./subs/
  cap go subtests-v go test -v ./subs/
  cap go subtests-json go test -json ./subs/
  cap go no-test-files-v go test -v ./empty/
  cap go no-test-files-json go test -json ./empty/
fi
if want tap; then
  fresh perl
  cap tap perl-basic perl basic.t
  cap tap perl-died perl died.t
  cap tap perl-bail perl bail.t
  cap tap perl-basic-prove-verbose prove -v basic.t
  cap tap perl-spoof perl spoof.t
fi
if want phpunit; then
  fresh phpunit
  capr phpunit basic xml phpunit --log-junit @REPORT@ BasicTest.php
  capr phpunit spoof xml phpunit --log-junit @REPORT@ SpoofTest.php
  capr phpunit data xml phpunit --log-junit @REPORT@ DataTest.php
  capr phpunit all-pass xml phpunit --log-junit @REPORT@ --filter 'testAdds|testSubtracts' BasicTest.php
  capr phpunit no-tests xml phpunit --log-junit @REPORT@ --filter nothing_matches BasicTest.php
fi
if want rspec; then
  fresh rspec
  capr rspec basic json rspec --no-color --format progress --format json --out @REPORT@ basic_spec.rb
  capr rspec documentation json rspec --no-color --format documentation --format json --out @REPORT@ basic_spec.rb
  capr rspec spoof json rspec --no-color --format progress --format json --out @REPORT@ spoof_spec.rb
  capr rspec hook json rspec --no-color --format progress --format json --out @REPORT@ hook_spec.rb
  capr rspec load-error json rspec --no-color --format progress --format json --out @REPORT@ basic_spec.rb broken_spec.rb
  capr rspec no-tests json rspec --no-color --format progress --format json --out @REPORT@ --example nothing_matches basic_spec.rb
fi
if want lint; then
  fresh lint/js
  cap eslint stylish eslint bad.js other.js clean.js
  cap eslint stylish-color eslint --color bad.js other.js clean.js
  cap eslint json eslint -f json bad.js other.js clean.js
  cap eslint clean eslint clean.js
  cap eslint parse-error eslint bad.js syntax.js
  cap biome default biome lint bad.js other.js clean.js
  cap biome color biome lint --colors=force bad.js other.js clean.js
  cap biome json biome lint --reporter=json bad.js other.js clean.js
  cap biome clean biome lint clean.js
  cap biome github biome lint --reporter=github bad.js other.js clean.js
  fresh lint/ts
  # stored as .ts.src so the repo's own typecheck does not trip over these deliberately broken files
  for f in *.ts.src; do mv "$f" "${f%.src}"; done
  cap tsc no-config tsc -p missing-dir --pretty false
  cap tsc plain tsc -p . --pretty false
  cap tsc pretty tsc -p . --pretty true
  cap tsc ts5 node "$repo/node_modules/typescript/bin/tsc" -p . --pretty false
  cap tsc ts5-pretty node "$repo/node_modules/typescript/bin/tsc" -p . --pretty true
  fresh lint/py
  cap ruff default ruff check --no-cache bad.py clean.py
  cap ruff concise ruff check --no-cache --output-format=concise bad.py clean.py
  cap ruff all ruff check --no-cache --select ALL --output-format=concise bad.py
  cap ruff color env CLICOLOR_FORCE=1 ruff check --no-cache bad.py clean.py
  cap ruff clean ruff check --no-cache clean.py
  cap flake8 default flake8 bad.py clean.py
  cap flake8 color flake8 --color=always bad.py clean.py
  cap pylint default pylint bad.py clean.py
  cap pylint color pylint --output-format=colorized bad.py clean.py
  cap pylint syntax-error pylint syntax_err.py clean.py
  cap pylint parseable pylint --output-format=parseable bad.py clean.py
  cap mypy default mypy --no-incremental --cache-dir=/dev/null bad.py clean.py
  cap mypy color env MYPY_FORCE_COLOR=1 mypy --no-incremental --cache-dir=/dev/null bad.py
  cap mypy syntax-error mypy --no-incremental --cache-dir=/dev/null syntax_err.py bad.py
  cap mypy clean mypy --no-incremental --cache-dir=/dev/null clean.py
  fresh lint/sh
  cap shellcheck tty shellcheck bad.sh mid.sh
  cap shellcheck tty-color shellcheck --color=always bad.sh mid.sh
  cap shellcheck gcc shellcheck -f gcc bad.sh mid.sh
  cap shellcheck mid-only shellcheck -f gcc mid.sh
  fresh lint/rust
  export CARGO_TARGET_DIR="$work/clippy-target"
  cap clippy warnings cargo clippy --color never
  cap clippy warnings-color sh -c 'touch src/lib.rs; cargo clippy --color always'
  cap clippy all-targets sh -c 'touch src/lib.rs; cargo clippy --color never --all-targets'
  cap clippy deny sh -c 'touch src/lib.rs; cargo clippy --color never --features deny'
  cap clippy short sh -c 'touch src/lib.rs; cargo clippy --color never --message-format=short --features deny'
  unset CARGO_TARGET_DIR
fi
