// Paths of judgeloop's own that no check may see (the sandbox hides them): config files as they are read.
const paths = new Set<string>();

/** Marks a file or folder as judgeloop's own: hidden inside the check sandbox. */
export function markPrivate(path: string): void {
  paths.add(path);
}

export function privatePaths(): string[] {
  return [...paths];
}
