// The dispatcher's start-up cost: `bin/judgeloop collect --version` against `bin/collect --version` (the command
// alone), median of alternated spawns, wall time. Goal (issue 24): within 10 ms.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const N = Number(process.env.BENCH_N ?? 40);

/** Wall time, and CPU (user + system, from GNU time: far less swayed by the machine's other load). */
function once(cmd: string, args: string[]): { wall: number; cpu: number } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', join(root, 'bin', cmd), ...args], { encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cases: [string, string, string[]][] = [
  ['collect alone', 'collect', ['--version']],
  ['judgeloop collect', 'judgeloop', ['collect', '--version']],
  ['rate alone --help', 'rate', ['--help']],
  ['judgeloop rate --help', 'judgeloop', ['rate', '--help']],
];
const walls = new Map(cases.map(([name]) => [name, [] as number[]]));
const cpus = new Map(cases.map(([name]) => [name, [] as number[]]));
for (const [, cmd, args] of cases) once(cmd, args); // warm the file cache
for (let i = 0; i < N; i++)
  for (const [name, cmd, args] of cases) {
    const r = once(cmd, args);
    walls.get(name)!.push(r.wall);
    cpus.get(name)!.push(r.cpu);
  }
for (const [name] of cases)
  console.log(
    `${name.padEnd(24)} wall median ${median(walls.get(name)!).toFixed(1)} ms, CPU median ${median(cpus.get(name)!).toFixed(0)} ms (n=${N})`,
  );
const diff = (m: Map<string, number[]>, a: string, b: string) => (median(m.get(a)!) - median(m.get(b)!)).toFixed(1);
console.log(
  `dispatcher cost (goal: within 10 ms): collect wall ${diff(walls, 'judgeloop collect', 'collect alone')} ms, CPU ${diff(cpus, 'judgeloop collect', 'collect alone')} ms; rate --help wall ${diff(walls, 'judgeloop rate --help', 'rate alone --help')} ms, CPU ${diff(cpus, 'judgeloop rate --help', 'rate alone --help')} ms`,
);
