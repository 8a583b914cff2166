// The secret-rule table (config/secret-rules.json) compiled once: types and compilation, pure.
import { UserError } from '../base/errors.js';
import type { SecretRules } from '../schema/types.generated.js';

/** The table as stored (schemas/secret-rules.schema.json). */
export type SecretTableSource = SecretRules;

interface TokenRule {
  id: string;
  vendor: string;
  re: RegExp;
  keywords: string[];
  minEntropy: number;
  placeholders: boolean;
}

export interface SecretTable {
  version: string;
  tokens: TokenRule[];
  assignment: {
    id: string;
    re: RegExp;
    name: RegExp;
    strongName: RegExp;
    minLength: number;
    minEntropy: number;
    strongMinLength: number;
    strongMinEntropy: number;
  };
  privateKey: {
    id: string;
    begin: RegExp;
    end: RegExp;
    bodyMinLines: number;
    bodyLine: RegExp;
    bodyMinEntropy: number;
  };
  placeholders: RegExp[];
  secretFiles: RegExp[];
  secretFilesExcept: RegExp;
}

/** A table entry that does not compile is a configuration error naming the rule. */
function compile(where: string, source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (e) {
    throw new UserError(`config/secret-rules.json: ${where}: ${(e as Error).message}`);
  }
}

// name (quote) separator (quoted value | bare value); the value rules live in code (looksLikeSecretValue). The
// name starts where its run of name characters starts and every quantifier is bounded: the agent's text must
// not make matching quadratic (a megabyte of `a.a.a.` took minutes with an open-ended name).
const assignmentRe = (name: string): string =>
  String.raw`(?<![A-Za-z0-9_.-])(?<name>[A-Za-z0-9_.-]{0,64}?${name}[A-Za-z0-9_.-]{0,64})["'\]]?[ \t]{0,10}(?::=|=>|\+=|\?=|=|:)[ \t]{0,10}(?:(?<q>["'\x60])(?<qv>[^"'\x60\s]{0,512})\k<q>|(?<uv>[^\s"'\x60,;#\[\](){}<>]{1,512}))`;

export function compileSecretTable(src: SecretTableSource): SecretTable {
  const a = src.assignment;
  const pk = src.private_key;
  return {
    version: src.version,
    tokens: src.token_rules.map((r) => ({
      id: r.id,
      vendor: r.vendor,
      re: compile(`token_rules ${r.id}`, r.regex, `g${r.flags ?? ''}`),
      keywords: r.keywords.map((k) => k.toLowerCase()),
      minEntropy: r.min_entropy ?? 0,
      placeholders: r.placeholders ?? false,
    })),
    assignment: {
      id: a.id,
      re: compile('assignment', assignmentRe(a.name_regex), 'gi'),
      name: compile('assignment name_regex', a.name_regex, 'i'),
      strongName: compile('assignment strong_name_regex', a.strong_name_regex, 'i'),
      minLength: a.min_length,
      minEntropy: a.min_entropy,
      strongMinLength: a.strong_min_length,
      strongMinEntropy: a.strong_min_entropy,
    },
    privateKey: {
      id: pk.id,
      begin: compile('private_key begin', pk.begin, 'g'),
      end: compile('private_key end', pk.end, 'g'),
      bodyMinLines: pk.body_min_lines,
      bodyLine: compile('private_key body_line_regex', pk.body_line_regex, ''),
      bodyMinEntropy: pk.body_min_entropy,
    },
    placeholders: src.placeholders.map((p, i) => compile(`placeholders[${i}]`, p, 'i')),
    secretFiles: src.secret_files.map((p, i) => compile(`secret_files[${i}]`, p, 'i')),
    secretFilesExcept: compile('secret_files_except', src.secret_files_except, 'i'),
  };
}
