// What `judgeloop doctor` checks, one finding each; pure but for the probes it is handed (tests pass their own).
type Level = 'ok' | 'warn' | 'fail';

export interface Finding {
  check: string;
  level: Level;
  /** What was found (a path, a count). */
  detail: string;
  /** What to do, when something is to be done. */
  fix?: string;
}

export const ok = (check: string, detail: string): Finding => ({ check, level: 'ok', detail });
export const warn = (check: string, detail: string, fix: string): Finding => ({ check, level: 'warn', detail, fix });
export const fail = (check: string, detail: string, fix: string): Finding => ({ check, level: 'fail', detail, fix });

/** One line per finding: `ok   state: /x (beside the config file)`, a fix after an arrow. */
export function formatFindings(fs: readonly Finding[]): string {
  return fs.map((f) => `${f.level.padEnd(4)} ${f.check}: ${f.detail}${f.fix ? `\n     → ${f.fix}` : ''}`).join('\n');
}

/** 1 when anything must be fixed, else 0. */
export const doctorExit = (fs: readonly Finding[]): number => (fs.some((f) => f.level === 'fail') ? 1 : 0);
