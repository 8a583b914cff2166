// The check sandbox's start-up cost (issue 23): bubblewrap from an empty root with named binds (deny by default)
// against the previous recipe (`--ro-bind / /`, $HOME and private paths masked with tmpfs), each running `true`, and
// a plain `sh -c true` for scale. Median of N alternated runs (BENCH_N, default 40), wall ms.
// Run: node --import tsx bench/sandbox.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bwrapArgs, sandboxPolicy } from '../lib/process/sandbox.js';
import { median } from '../lib/stats/stats.js';

const N = Number(process.env.BENCH_N ?? 40);
const wt = mkdtempSync(join(tmpdir(), 'judgeloop-bench-sandbox-'));
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const policy = sandboxPolicy({ mode: 'required', network: false, env, private: [join(wt, 'state')], expose: [] });
const req = { command: 'true', cwd: wt, writable: [wt], network: false };

/** The recipe before issue 23: the whole filesystem read-only, $HOME and the private paths hidden on top. */
function previousArgs(): string[] {
  const args = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  args.push('--new-session', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  args.push('--tmpfs', '/tmp', '--tmpfs', '/var/tmp', '--tmpfs', process.env.HOME ?? '/root');
  for (const e of policy.expose) args.push('--ro-bind', e, e);
  args.push('--bind', wt, wt, '--chdir', wt, '--', 'sh', '-c', 'true');
  return args;
}

const cases: Record<string, () => [string, string[]]> = {
  'plain sh -c true': () => ['sh', ['-c', 'true']],
  'previous (--ro-bind / /)': () => ['bwrap', previousArgs()],
  'deny by default (empty root)': () => ['bwrap', bwrapArgs(policy, req)],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const argvBuild: number[] = [];
for (let i = 0; i < N; i++)
  for (const [name, make] of Object.entries(cases)) {
    const t0 = performance.now();
    const [cmd, args] = make();
    if (name.startsWith('deny')) argvBuild.push(performance.now() - t0);
    const t = performance.now();
    const r = spawnSync(cmd, args, { stdio: 'ignore' });
    times[name]!.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
  }
rmSync(wt, { recursive: true, force: true });
console.log(`sandbox start-up, median of ${N} alternated runs (load ${loadavg()[0]!.toFixed(1)}):`);
for (const [name, xs] of Object.entries(times)) console.log(`  ${name.padEnd(30)} ${median(xs)!.toFixed(1)} ms`);
console.log(`  building the new argv (policy applied)  ${median(argvBuild)!.toFixed(2)} ms`);
console.log(
  `  binds: ${bwrapArgs(policy, req).filter((a) => a.startsWith('--') && /bind|symlink|tmpfs/.test(a)).length} (previous ${previousArgs().filter((a) => /bind|tmpfs/.test(a)).length})`,
);
