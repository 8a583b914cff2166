// Does a change do anything? (pure) Empty, whitespace/comment-only, tests-only and docs-only diffs do nothing:
// they fail the gate's substantive_change condition and earn no score.
import { tokenize } from './clones.js';
import { lexical } from './comments.js';
import type { FilePatch } from '../git/diff-parse.js';
import type { NoOp } from './gate.js';
import { TEST_FILE } from './test-findings.js';
import { TS_JS_FILE } from './ts-metrics.js';

export const DOC_FILE =
  /(^|\/)(docs?\/|README|CHANGELOG|CHANGES|HISTORY|NEWS|LICENSE|AUTHORS)|\.(md|mdx|rst|adoc|txt)$/i;

/** The text's code with comments gone and whitespace normalised (Python keeps its indentation); null when the language is not known. */
export function codeShape(path: string, text: string): string | null {
  if (TS_JS_FILE.test(path))
    return tokenize(path, text)
      .map((t) => t.text)
      .join(' ');
  const lx = lexical(path, text);
  if (!lx) return null;
  const keepIndent = /\.py$/.test(path);
  return lx.noComments
    .split('\n')
    .map((l) =>
      keepIndent
        ? l.replace(/^(\s*)(.*?)\s*$/, (_, ind: string, rest: string) => `${ind}${rest.replace(/\s+/g, ' ')}`)
        : l.trim().replace(/\s+/g, ' '),
    )
    .filter((l) => l.trim() !== '')
    .join('\n');
}

export interface SubstanceInput {
  patch: FilePatch[];
  /** Both versions of the changed text files. */
  files: { path: string; base: string | null; head: string | null }[];
  /** Files whose change vanishes when whitespace is ignored. */
  formattingOnlyFiles: string[];
  /** The run record's task.type: a docs task's documents, a test task's tests, are its work. */
  taskType?: string;
}

const DOCS_TASK = /^(docs?|documentation)$/i;
const TESTS_TASK = /^(tests?|testing)$/i;

/** Null when the change touches code (a non-test, non-doc file whose code changed); else what kind of nothing it is. */
export function noOpChange(i: SubstanceInput): NoOp | null {
  if (!i.patch.length) return { kind: 'empty', detail: 'the diff is empty' };
  const formatting = new Set(i.formattingOnlyFiles);
  const texts = new Map(i.files.map((f) => [f.path, f]));
  let tests = 0;
  let cosmetic = 0;
  let docs = 0;
  const docsAreWork = DOCS_TASK.test(i.taskType ?? '');
  const testsAreWork = TESTS_TASK.test(i.taskType ?? '');
  for (const p of i.patch) {
    if (
      ((docsAreWork && DOC_FILE.test(p.path)) || (testsAreWork && TEST_FILE.test(p.path))) &&
      !i.formattingOnlyFiles.includes(p.path)
    )
      return null;
    if (TEST_FILE.test(p.path) || (p.oldPath && TEST_FILE.test(p.oldPath))) {
      tests++;
      continue;
    }
    if (DOC_FILE.test(p.path)) {
      docs++;
      continue;
    }
    if (formatting.has(p.path)) {
      cosmetic++;
      continue;
    }
    const t = texts.get(p.path);
    if (t && t.base !== null && t.head !== null) {
      const a = codeShape(p.path, t.base);
      if (a !== null && a === codeShape(p.path, t.head)) {
        cosmetic++;
        continue;
      }
    }
    return null;
  }
  const parts = [
    tests && `${tests} test files`,
    docs && `${docs} documentation files`,
    cosmetic && `${cosmetic} files in whitespace or comments only`,
  ]
    .filter(Boolean)
    .join(', ');
  if (tests) return { kind: 'tests_only', detail: `changes no code under test: only ${parts}` };
  if (cosmetic) return { kind: 'cosmetic', detail: `changes no code: only ${parts}` };
  return { kind: 'no_code', detail: `changes no code: only ${parts}` };
}
