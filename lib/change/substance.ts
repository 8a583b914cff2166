// Does a change do anything? (pure) Empty, comment-only, tests-only, docs-only, ignore-file, metadata/version-only
// diffs and empty or comment-only new files do nothing: no substantive_change, no score.
import { tokenize } from './clones.js';
import { lexical } from './comments.js';
import type { FilePatch } from '../git/diff-parse.js';
import type { IsTest } from './test-findings.js';
import { TS_JS_FILE } from './ts-metrics.js';
import { plural } from '../base/plural.js';

/** What a change that does nothing is, or null when it changes code. */
export interface NoOp {
  kind: 'empty' | 'cosmetic' | 'tests_only' | 'no_code';
  detail: string;
}

const DOC_FILE = /(^|\/)(docs?\/|README|CHANGELOG|CHANGES|HISTORY|NEWS|LICENSE|AUTHORS)|\.(md|mdx|rst|adoc|txt)$/i;

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

/** Files that change what git or a tool ignores, or editor settings: never executable. */
const IGNORE_FILE =
  /(^|\/)(\.(git|docker|npm|eslint|prettier|stylelint|hg|cursor|vscode)ignore|\.gitattributes|\.editorconfig|\.mailmap|CODEOWNERS)$/;
/** Files that hold only a version. */
const VERSION_FILE = /(^|\/)(VERSION|version\.txt|\.version)$/i;
/** A manifest or module line that states metadata: a version, description, authors, license, links, keywords. */
const METADATA_LINE =
  /^\s*"?(__version__|__author__|__license__|version|VERSION|description|keywords|author|authors|license|homepage|repository|bugs|funding|classifiers|maintainers|contributors|readme|urls|documentation)"?\s*[:=]/;
const MANIFEST =
  /(^|\/)(package\.json|package-lock\.json|composer\.json|pyproject\.toml|setup\.cfg|setup\.py|Cargo\.toml|Cargo\.lock|[\w.-]+\.gemspec|__init__\.py|_version\.py|version\.py)$/;
const PACKAGE_META = [
  'version',
  'description',
  'keywords',
  'author',
  'contributors',
  'license',
  'homepage',
  'repository',
  'bugs',
  'funding',
  'maintainers',
];

/** Whether a changed manifest or module differs from its base only in metadata (version, description, …). */
function metadataOnly(p: FilePatch, base: string | null, head: string | null): boolean {
  if (VERSION_FILE.test(p.path)) return true;
  if (!MANIFEST.test(p.path)) return false;
  if (/(^|\/)package\.json$/.test(p.path) && base !== null && head !== null) {
    const strip = (t: string) => {
      try {
        const o = JSON.parse(t) as Record<string, unknown>;
        for (const k of PACKAGE_META) delete o[k];
        return JSON.stringify(o);
      } catch {
        return null;
      }
    };
    const a = strip(base);
    if (a !== null && a === strip(head)) return true;
  }
  const changed = [...p.added.map((a) => a.text), ...p.removedLines.map((r) => r.text)].filter((t) => t.trim());
  return changed.length > 0 && changed.every((t) => METADATA_LINE.test(t) || /^\s*"version":/.test(t));
}

export interface SubstanceInput {
  patch: FilePatch[];
  /** Both versions of the changed text files. */
  files: { path: string; base: string | null; head: string | null }[];
  /** Files whose change vanishes when whitespace is ignored. */
  formattingOnlyFiles: string[];
  /** The run record's task.type: a docs task's documents, a test task's tests, are its work. */
  taskType?: string;
  /** Paths the graded run takes from the trusted revision (tests, test infrastructure); a name regex when absent. */
  isTest: IsTest;
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
  let meta = 0;
  const isTest = i.isTest;
  const docsAreWork = DOCS_TASK.test(i.taskType ?? '');
  const testsAreWork = TESTS_TASK.test(i.taskType ?? '');
  for (const p of i.patch) {
    if (
      ((docsAreWork && DOC_FILE.test(p.path)) || (testsAreWork && isTest(p.path))) &&
      !i.formattingOnlyFiles.includes(p.path)
    )
      return null;
    if (isTest(p.path) || (p.oldPath && isTest(p.oldPath))) {
      tests++;
      continue;
    }
    if (DOC_FILE.test(p.path)) {
      docs++;
      continue;
    }
    const t = texts.get(p.path);
    if (IGNORE_FILE.test(p.path) || metadataOnly(p, t?.base ?? null, t?.head ?? null)) {
      meta++;
      continue;
    }
    if (formatting.has(p.path)) {
      cosmetic++;
      continue;
    }
    // A new file that holds nothing but comments and whitespace (or nothing at all) adds no code.
    if (
      p.created &&
      t?.head !== null &&
      t?.head !== undefined &&
      (!t.head.trim() || codeShape(p.path, t.head)?.trim() === '')
    ) {
      cosmetic++;
      continue;
    }
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
    tests && plural(tests, 'test file'),
    docs && plural(docs, 'documentation file'),
    cosmetic && `${plural(cosmetic, 'file')} in whitespace or comments only`,
    meta && plural(meta, 'ignore or metadata file'),
  ]
    .filter(Boolean)
    .join(', ');
  if (tests) return { kind: 'tests_only', detail: `changes no code under test: only ${parts}` };
  if (cosmetic) return { kind: 'cosmetic', detail: `changes no code: only ${parts}` };
  return { kind: 'no_code', detail: `changes no code: only ${parts}` };
}
