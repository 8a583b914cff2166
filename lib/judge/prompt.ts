// config/judge-prompt.md: front matter with its version, then the system prompt. Pure.

export interface JudgePrompt {
  version: string;
  text: string;
}

/** Reads `---\nversion: X\n---\n<body>`; a prompt without a version is a configuration error. */
export function parseJudgePrompt(source: string, file: string): JudgePrompt {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(source);
  const version = m ? /^version:\s*(\S+)\s*$/m.exec(m[1]!)?.[1] : undefined;
  if (!m || !version) throw new Error(`${file}: expected front matter with "version: <x>" at the top`);
  return { version, text: source.slice(m[0].length).trim() + '\n' };
}
