// How judge issues are compared across runs. Pure.

/** The category when the judge gave one, else the description folded (case, digits, punctuation), so repeats compare equal. */
export function issueKey(issue: { description: string; category?: string }): string {
  const cat = issue.category?.trim().toLowerCase();
  if (cat) return cat;
  const folded = issue.description
    .toLowerCase()
    .replace(/[0-9]+/g, '#')
    .replace(/[^a-z#]+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return folded || 'unspecified';
}
