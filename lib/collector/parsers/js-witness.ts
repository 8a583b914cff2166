// Our observer in vitest's, jest's and mocha's test processes, loaded through NODE_OPTIONS: the frameworks' functions
// replaced, an actual value equal to everything, the test files read by the code under test, a process that never ended.
import { WITNESS_FILE } from './pytest-witness.js';
import { WATCH_FS_READS } from './node-witness.js';

/** The record's path: every node process inherits it, and only the runners' test processes and threads write to it. */
const JS_WITNESS_ENV = 'JUDGELOOP_JS_WITNESS';

// String.raw: the module's text as it runs (no escapes; one hole: the read watch it shares with node's witness).
const JS_WITNESS = String.raw`// judgeloop's observer in vitest's, jest's and mocha's test processes (a process a test starts is not one).
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const record = process.env.JUDGELOOP_JS_WITNESS;
const require = createRequire(import.meta.url);
const fs = require('node:fs');
// Held here: code under test that replaces fs's functions later does not write (or silence) this record.
const append = fs.appendFileSync;
const realpath = fs.realpathSync;
const real = (p) => {
  try {
    return realpath(p instanceof URL ? fileURLToPath(p) : String(p));
  } catch {
    return null;
  }
};
const script = process.argv[1] ? (real(process.argv[1]) ?? '') : '';
// The runners' own entry points, as their test processes and threads start (forks and threads, workers, in band).
const role =
  (isMainThread && /\/vitest\/dist\/workers\/(?:forks|vmForks)\.js$/.test(script)) ||
  (!isMainThread && /\/vitest\/dist\/workers\/(?:threads|vmThreads)\.js$/.test(script))
    ? 'vitest'
    : /\/jest-worker\/build\/(?:workers\/)?(?:processChild|threadChild)\.js$|\/jest(?:-cli)?\/bin\/jest\.js$/.test(script)
      ? 'jest'
      : isMainThread && /\/mocha\/(?:bin\/mocha\.js|bin\/_mocha|lib\/cli\/cli\.js|lib\/nodejs\/worker\.js)$/.test(script)
        ? 'mocha'
        : null;

if (record && role) {
  const line = (...parts) => append(record, parts.join('\t') + '\n');
  line('loaded');
  const me = fileURLToPath(import.meta.url);
  // What is checked at the end: [name, owner, key, value when the framework was ready].
  const parts = [];
  const keep = (name, owner, key) => parts.push([name, owner, key, owner[key]]);
  for (const [name, o] of [['assert', require('node:assert')], ['assert.strict', require('node:assert/strict')]])
    for (const k of Object.getOwnPropertyNames(o)) if (typeof o[k] === 'function') keep(name + '.' + k, o, k);

  // An actual value that equals everything: an asymmetric matcher, or an object whose equals/asymmetricMatch says
  // yes to a fresh object it has never seen (searched a few levels into arrays and plain objects).
  class Probe {}
  const yes = (f, o) => {
    try {
      return f.call(o, new Probe()) === true && f.call(o, new Probe()) === true;
    } catch {
      return false;
    }
  };
  const universal = (v, depth = 0) => {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return null;
    try {
      if (v.$$typeof === Symbol.for('jest.asymmetricMatcher')) return 'an asymmetric matcher';
      if (typeof v.asymmetricMatch === 'function')
        return yes(v.asymmetricMatch, v) ? 'asymmetricMatch equal to everything' : 'an asymmetric matcher';
      if (typeof v.equals === 'function' && yes(v.equals, v)) return 'equals equal to everything';
      if (depth >= 3 || typeof v === 'function') return null;
      const proto = Object.getPrototypeOf(v);
      if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return null;
      for (const k of Object.keys(v).slice(0, 50)) {
        const got = universal(v[k], depth + 1);
        if (got) return got;
      }
    } catch {
      return null;
    }
    return null;
  };
  const typeName = (v) => {
    try {
      return (v && v.constructor && v.constructor.name) || typeof v;
    } catch {
      return typeof v;
    }
  };
  const clean = (s) => String(s ?? '?').replace(/[\t\n]+/g, ' ');
  let reported = 0;
  const compared = (actual, how, testName) => {
    const found = reported < 20 ? universal(actual) : null;
    if (!found) return;
    reported++;
    line('universal', clean(testName), clean(how + ' (' + found + ')'), 'actual', clean(typeName(actual)));
  };

  // jest's expect (in jest's test contexts, or the expect package under mocha): its matchers, looked up per call.
  const MATCHERS = Symbol.for('$$jest-matchers-object');
  const INTERNAL = Symbol.for('$$jest-internal-matcher');
  const watchMatchers = (g, prefix) => {
    const mo = g[MATCHERS];
    if (!mo || !mo.matchers) return;
    for (const name of Object.keys(mo.matchers)) {
      const was = mo.matchers[name];
      if (typeof was !== 'function') continue;
      const wrapped = function (actual, ...rest) {
        compared(actual, 'expect(actual).' + name, (mo.state && mo.state.currentTestName) || mochaCurrent());
        return was.call(this, actual, ...rest);
      };
      if (was[INTERNAL] === true) Object.defineProperty(wrapped, INTERNAL, { value: true });
      mo.matchers[name] = wrapped;
      keep(prefix + 'matchers.' + name, mo.matchers, name);
    }
  };

  // jest: each test file's context once the framework is in it (the test file is the next thing it loads).
  const Module = require('node:module');
  const load = Module._load;
  let runtimeSeen = false;
  let expectSeen = false;
  let mochaRunner = null;
  let mochaCurrent = () => '?';
  let counts = null;
  let listenEnd = () => {};
  Module._load = function (request, ...rest) {
    const out = load.call(this, request, ...rest);
    if (!runtimeSeen && role === 'jest' && request === 'jest-runtime' && out && out.default) {
      runtimeSeen = true;
      jestRuntime(out.default.prototype);
    }
    if (!expectSeen && role === 'mocha' && request === 'expect' && globalThis[MATCHERS]) {
      expectSeen = true;
      keep('expect', out, 'expect');
      watchMatchers(globalThis, 'expect.');
    }
    // mocha's runner: the test running when a comparison is seen.
    if (!mochaRunner && role === 'mocha' && request === './runner' && out && out.prototype && out.prototype.run) {
      mochaRunner = out.prototype;
      const run = out.prototype.run;
      out.prototype.run = function (...args) {
        mochaCurrent = () => this.currentRunnable && this.currentRunnable.fullTitle();
        // The runner's own events, counted here: the report's counts are checked against them.
        counts = counts || [0, 0];
        this.on('pass', () => counts[0]++);
        this.on('fail', () => counts[1]++);
        return run.apply(this, args);
      };
    }
    return out;
  };
  const jestRuntime = (proto) => {
    const mine = new WeakMap();
    const enter = (rt, path) => {
      if (mine.has(rt) || path !== rt._testPath || !rt._environment || !rt._environment.global) return;
      listenEnd();
      const g = rt._environment.global;
      const start = parts.length;
      keep('expect', g, 'expect');
      // jest-circus's event handlers decide each test's result: one added (addEventHandler) or swapped is a rewrite.
      const handlers = g[Symbol.for('EVENT_HANDLERS')];
      if (Array.isArray(handlers)) {
        keep('jest-circus.eventHandlers.length', handlers, 'length');
        for (let i = 0; i < handlers.length; i++) keep('jest-circus.eventHandlers.' + i, handlers, i);
      }
      watchMatchers(g, 'expect.');
      mine.set(rt, [start, parts.length]);
    };
    for (const k of ['requireModule', 'unstable_importModule']) {
      const was = proto[k];
      if (typeof was !== 'function') continue;
      proto[k] = function (from, ...rest) {
        enter(this, from);
        return was.call(this, from, ...rest);
      };
    }
    // Checked when the test file's runtime is torn down (before jest clears its context's globals).
    const teardown = proto.teardown;
    proto.teardown = function (...args) {
      const span = mine.get(this);
      if (span) {
        check(parts.slice(span[0], span[1]));
        parts.splice(span[0], span[1] - span[0], ...parts.slice(span[0], span[1]).map((p) => [p[0], null]));
      }
      return teardown.apply(this, args);
    };
  };

  // vitest: its expect is defined on globalThis once chai has its matchers (the first definition is the one we want).
  const GLOBAL_EXPECT = Symbol.for('expect-global');
  const define = Object.defineProperty;
  if (role === 'vitest')
    Object.defineProperty = function (o, key, desc) {
      const out = define(o, key, desc);
      if (o === globalThis && key === GLOBAL_EXPECT && Object.defineProperty !== define) {
        Object.defineProperty = define;
        vitest(desc.value);
      }
      return out;
    };
  const vitest = (expect) => {
    if (typeof expect !== 'function') return;
    keep('expect', globalThis, GLOBAL_EXPECT);
    let proto = null;
    try {
      proto = Object.getPrototypeOf(expect(undefined));
    } catch {
      return;
    }
    if (!proto) return;
    const current = () => {
      try {
        return expect.getState().currentTestName;
      } catch {
        return '?';
      }
    };
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (!d || !('value' in d) || typeof d.value !== 'function' || name === 'constructor') continue;
      if (/^(?:to[A-Z]\w*|equals?|eql|eqls|eq)$/.test(name)) {
        const was = d.value;
        proto[name] = function (...args) {
          compared(this.__flags ? this.__flags.object : undefined, 'expect(actual).' + name, current());
          return was.apply(this, args);
        };
      }
      keep('chai.Assertion.' + name, proto, name);
    }
  };

  // The test files read by the code under test: a source file under a test folder or named .test/.spec, opened by a
  // file outside node_modules that is not itself a test file.
  const TEST = /(?:\/(?:tests?|__tests__|spec)\/.*|\.(?:test|spec))\.[cm]?[jt]sx?$/;
  let peeks = 0;
  const seen = (p, how) => {
    if (peeks >= 20 || typeof p === 'number' || p === null || p === undefined) return;
    const path = real(p);
    if (!path || !TEST.test(path) || path.includes('/node_modules/')) return;
    const who = caller();
    if (!who || (who !== '?' && (who.includes('/node_modules/') || TEST.test(real(who) ?? who)))) return;
    peeks++;
    line('peeked', path, how, who);
  };
${WATCH_FS_READS}
  const check = (list) => {
    let out = '';
    for (const [name, o, k, was] of list) if (o && o[k] !== was) out += 'replaced\t' + name + '\n';
    if (out) append(record, out);
  };
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    check(parts);
    append(record, counts ? 'finished\t' + counts[0] + '\t' + counts[1] + '\t0\n' : 'finished\n');
  };
  process.on('exit', finish);
  // jest's workers are asked to end (a message), then killed if they linger: the ask is their end. Listened to once
  // jest's own listener is there (at the first test file: earlier, ours would take its first messages), and gone with
  // the ask, so it never holds the channel open.
  const onEnd = (m) => {
    if (!Array.isArray(m) || m[0] !== 2) return;
    process.removeListener('message', onEnd);
    finish();
  };
  listenEnd = () => {
    listenEnd = () => {};
    if (isMainThread && /processChild\.js$/.test(script)) process.on('message', onEnd);
  };
  // vitest's threads are terminated, never exit, and its forks may be killed: their end is the worker's last answer
  // to the pool (stopped).
  const port = isMainThread ? process : require('node:worker_threads').parentPort;
  const key = isMainThread ? 'send' : 'postMessage';
  if (role === 'vitest' && port && typeof port[key] === 'function') {
    const post = port[key];
    port[key] = function (m, ...rest) {
      if (m && m.__vitest_worker_response__ && m.type === 'stopped') finish();
      return post.call(this, m, ...rest);
    };
  }
}
`;

/** The plan's observer for vitest, jest and mocha: the module written beside the report, loaded through NODE_OPTIONS. */
export function jsWitness(
  dir: string,
  env: NodeJS.ProcessEnv,
): { files: Record<string, string>; env: Record<string, string> } {
  // Under the run's own name, in judgeloop's fresh folder outside the tree: nothing there can stand in for it.
  const module = `judgeloop-o-${(dir.split('/').pop() ?? '').replace(/[^A-Za-z0-9]/g, '-')}.mjs`;
  const preload = `--import=file://${dir}/${module}`;
  return {
    files: { [module]: JS_WITNESS },
    env: {
      NODE_OPTIONS: env.NODE_OPTIONS ? `${env.NODE_OPTIONS} ${preload}` : preload,
      [JS_WITNESS_ENV]: `${dir}/${WITNESS_FILE}`,
    },
  };
}
