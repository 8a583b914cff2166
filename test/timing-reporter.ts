// vitest reporter (vitest.config.ts): after the run, a table of the slowest test files — time spent in each file's
// tests and hooks, and its setup — so the suite's time (issue 38: under 5 minutes) is read per file.
import type { Reporter, TestModule } from 'vitest/node';

const SHOWN = 15;

export default class TimingReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return { file: m.relativeModuleId, ms: d.duration + d.setupDuration + d.collectDuration };
      })
      .sort((a, b) => b.ms - a.ms);
    if (!rows.length) return;
    const total = rows.reduce((s, r) => s + r.ms, 0);
    const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
    const lines = rows
      .slice(0, SHOWN)
      .map((r) => `${sec(r.ms)}  ${((100 * r.ms) / total).toFixed(1).padStart(5)}%  ${r.file}`);
    process.stdout.write(
      `\nSlowest test files (of ${rows.length}; ${sec(total).trim()} in files, summed over the workers):\n${lines.join('\n')}\n`,
    );
  }
}
