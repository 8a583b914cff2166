// Identifiers and strings that mix scripts (pure): a Cyrillic а in `pаssword`, a Greek ο in a function name that
// shadows the real one, a fullwidth letter; each reads as one name and is another. One script alone is not a finding.
type Script = 'latin' | 'cyrillic' | 'greek' | 'fullwidth' | 'other';

/** Fullwidth Latin letters and digits (U+FF10–FF19, FF21–FF3A, FF41–FF5A): Latin by script, not by what they are. */
const FULLWIDTH = /[\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A]/u;
const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;
/** A word: letters, marks, digits, `_` and `$` (what an identifier or a word of a string is made of). */
const WORD = /[\p{L}\p{M}\p{N}_$]+/gu;

function scriptOf(ch: string): Script {
  if (FULLWIDTH.test(ch)) return 'fullwidth';
  if (LATIN.test(ch)) return 'latin';
  if (CYRILLIC.test(ch)) return 'cyrillic';
  if (GREEK.test(ch)) return 'greek';
  return 'other';
}

/** The scripts other than Latin that a word mixes with Latin letters, sorted; empty when it does not mix. */
export function mixedScripts(word: string): Script[] {
  const seen = new Set<Script>();
  for (const ch of word) if (/\p{L}|\p{N}/u.test(ch)) seen.add(scriptOf(ch));
  if (!seen.has('latin')) return [];
  return (['cyrillic', 'greek', 'fullwidth'] as const).filter((s) => seen.has(s));
}

/** The first word of a line that mixes Latin with a lookalike script, with those scripts; null when none does. */
export function homoglyphWord(line: string): { word: string; scripts: Script[] } | null {
  for (const m of line.matchAll(WORD)) {
    const scripts = mixedScripts(m[0]);
    if (scripts.length) return { word: m[0], scripts };
  }
  return null;
}
