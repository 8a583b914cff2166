// JUnit XML (pytest --junitxml, vitest/jest junit reporters, surefire): one outcome per <testcase>.
import { makeCounts } from './_counts.js';
import type { TestParser } from './_parser.js';

const TAG = /<(\/?)(testcase|failure|error|skipped)\b([^>]*?)(\/?)>/g;

export const junit: TestParser = {
  name: 'junit',
  detect: (lines) => lines.some((l) => /<testsuites?\b/.test(l)),
  parse(lines) {
    const text = lines.join('\n');
    let passed = 0,
      failed = 0,
      skipped = 0,
      errors = 0,
      xfailed = 0,
      cases = 0;
    let open = false,
      hasFailure = false,
      hasError = false,
      afterPass = false,
      skipKind: 'skip' | 'xfail' | null = null;
    const close = (): void => {
      cases++;
      // <error> is JUnit's "broke outside an assertion" (pytest: setup/teardown); a case with one is an error, not a result.
      if (hasFailure) failed++;
      if (hasError) errors++;
      // pytest's summary counts a test whose teardown failed after it passed as passed and as an error: so here.
      if (afterPass && !hasFailure && skipKind === null) passed++;
      if (!hasFailure && !hasError) {
        if (skipKind === 'xfail') xfailed++;
        else if (skipKind === 'skip') skipped++;
        else passed++;
      }
    };
    for (const m of text.matchAll(TAG)) {
      const [, slash, tag, attrs = '', selfClose] = m;
      if (tag === 'testcase') {
        if (slash) {
          if (open) close();
          open = false;
          continue;
        }
        hasFailure = false;
        hasError = false;
        afterPass = false;
        skipKind = null;
        if (selfClose) close();
        else open = true;
      } else if (open && !slash) {
        if (tag === 'failure') hasFailure = true;
        else if (tag === 'error') {
          hasError = true;
          afterPass = /\bmessage="failed on teardown with/.test(attrs);
        } else skipKind = /type="pytest\.xfail"/.test(attrs) ? 'xfail' : 'skip';
      }
    }
    if (cases === 0 && !/<testsuites?\b/.test(text)) return null;
    return makeCounts('junit', { passed, failed, skipped, errors, xfailed });
  },
};
