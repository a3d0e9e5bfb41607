/**
 * "Did you mean …?" for mistyped names: subcommands, option values, config keys. One rule for
 * all of them, so the command line and config.toml suggest alike.
 */

/**
 * Edit distance where inserting, deleting or replacing a character, or swapping two adjacent
 * ones, each cost 1 (optimal string alignment). A swap counts once because `exce` for `exec`
 * is one slip of the fingers, not two.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Three rolling rows: the swap looks two rows back.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate `word` most likely stands for, or null when none is close enough. Close means
 * an edit distance of at most a third of the word's length (at least 1), compared without case;
 * a word of three or more characters that begins exactly one candidate also counts
 * (`workspace` → `workspace-write`). Ties go to the earlier candidate.
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const typed = word.toLowerCase();
  const limit = Math.max(1, Math.floor(typed.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  const prefixed: string[] = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    if (typed.length >= 3 && lower.startsWith(typed) && lower !== typed) prefixed.push(candidate);
    const distance = editDistance(typed, lower);
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== null) return best;
  return prefixed.length === 1 ? (prefixed[0] ?? null) : null;
}

/** ` (did you mean X?)` for messages, or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const match = nearest(word, candidates);
  return match === null ? "" : ` (did you mean ${match}?)`;
}
