/**
 * Finds where a chunk's lines sit in a file. Models often get whitespace or typography slightly
 * wrong, so the search relaxes in tiers, each over the whole range before the next: exact, then
 * ignoring trailing whitespace, then ignoring surrounding whitespace, then also treating Unicode
 * dashes, quotes and spaces as their ASCII forms. The first tier with a match wins.
 */

type LineComparer = (fileLine: string, patternLine: string) => boolean;

const TIERS: readonly LineComparer[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normalisePunctuation(a) === normalisePunctuation(b),
];

/**
 * Index in `lines` where `pattern` starts, searching from `start`; -1 if absent. With `endOfFile`
 * only the position that ends the pattern at the file's last line is tried. An empty pattern
 * matches at `start`.
 */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, endOfFile: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const last = lines.length - pattern.length;
  const from = endOfFile ? last : start;
  for (const same of TIERS) {
    for (let i = from; i <= last; i++) {
      if (matchesAt(lines, pattern, i, same)) return i;
    }
  }
  return -1;
}

function matchesAt(lines: readonly string[], pattern: readonly string[], at: number, same: LineComparer): boolean {
  for (let j = 0; j < pattern.length; j++) {
    if (!same(lines[at + j] ?? "", pattern[j] ?? "")) return false;
  }
  return true;
}

// Typographic characters a model may have typed as plain ASCII (or the other way round).
const PUNCTUATION_TO_ASCII: ReadonlyMap<string, string> = new Map([
  ...["\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\u2212"].map((c) => [c, "-"] as const),
  ...["\u2018", "\u2019", "\u201A", "\u201B"].map((c) => [c, "'"] as const),
  ...["\u201C", "\u201D", "\u201E", "\u201F"].map((c) => [c, '"'] as const),
  ...["\u00A0", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200A", "\u202F", "\u205F", "\u3000"].map(
    (c) => [c, " "] as const,
  ),
]);
const PUNCTUATION_PATTERN = new RegExp(`[${[...PUNCTUATION_TO_ASCII.keys()].join("")}]`, "g");

export function normalisePunctuation(line: string): string {
  return line.trim().replace(PUNCTUATION_PATTERN, (c) => PUNCTUATION_TO_ASCII.get(c) ?? c);
}
