/**
 * The fuzzy scorer of file search: whether a query matches a path, how well, and which
 * characters matched (for highlighting).
 *
 * Every query character must appear in order (case-insensitively, spaces ignored). Matches
 * inside the last name beat matches spread over the folders; characters that start a word
 * (after `/`, `_`, `-`, `.`, a space, or a lower-to-upper case change) and runs of adjacent
 * characters score higher; gaps cost; shorter paths win ties. Scores are non-negative integers,
 * higher is better (the app-server's protocol carries them as unsigned).
 */

export interface FileMatch {
  path: string;
  /** A file, or a folder when the index offers folders too. */
  kind: "file" | "directory";
  score: number;
  /** UTF-16 indices into `path` of the matched characters, ascending. */
  indices: number[];
}

// Scores are small integers (V8 keeps them unboxed, so scanning 100,000 paths allocates
// nothing); each point here is worth ten characters of path length, the tie-breaker.
const SCORE_MATCH = 160;
const BONUS_BOUNDARY = 100;
const BONUS_CAMEL = 70;
const BONUS_CONSECUTIVE = 80;
const BONUS_FIRST_CHAR = 60;
const PENALTY_GAP_START = 30;
const PENALTY_GAP_EXTEND = 10;
const BONUS_IN_NAME = 240;
const BONUS_NAME_PREFIX = 300;
/**
 * Added to every score so none is negative: gaps and length cost at most 11 points per character
 * of the path, so any path shorter than 5,900 characters (Linux allows 4,096) stays above zero.
 */
const SCORE_FLOOR = 1 << 16;
/** What `scoreOne` answers for a path the query does not match. */
export const NO_MATCH = -0x3fffffff;

const SLASH = 47;

function isSeparator(code: number): boolean {
  return code === SLASH || code === 95 /* _ */ || code === 45 /* - */ || code === 46 /* . */ || code === 32 || code === 92 /* \ */;
}

function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

/**
 * Finds `q` in `lower` between `from` and the end: the first complete match found left to right,
 * then tightened right to left so the window is as short as it can be from its end. Fills
 * `positions` and returns true, or returns false when `q` does not occur.
 */
function locate(q: string, lower: string, from: number, positions: Int32Array): boolean {
  let pos = from - 1;
  for (let j = 0; j < q.length; j++) {
    pos = lower.indexOf(q[j] as string, pos + 1);
    if (pos < 0) return false;
  }
  let k = pos;
  for (let j = q.length - 1; j >= 0; j--) {
    const code = q.charCodeAt(j);
    while (lower.charCodeAt(k) !== code) k--;
    positions[j] = k;
    k--;
  }
  return true;
}

function scorePositions(path: string, positions: Int32Array, count: number): number {
  let score = 0;
  let prev = -2;
  for (let j = 0; j < count; j++) {
    const at = positions[j] as number;
    score += SCORE_MATCH;
    if (at === 0) score += BONUS_BOUNDARY + BONUS_FIRST_CHAR;
    else {
      const before = path.charCodeAt(at - 1);
      if (isSeparator(before)) score += BONUS_BOUNDARY;
      else if (isLower(before) && isUpper(path.charCodeAt(at))) score += BONUS_CAMEL;
    }
    if (at === prev + 1) score += BONUS_CONSECUTIVE;
    else if (prev >= 0) score -= PENALTY_GAP_START + PENALTY_GAP_EXTEND * (at - prev - 1);
    prev = at;
  }
  return score;
}

/** Scratch space for positions, grown as queries get longer. */
let scratch = new Int32Array(64);

/**
 * The score of `path` for the (already normalized) query, or NO_MATCH when it does not match;
 * the matched positions are left in `scratch` for `matchOf`. `lower` is the path lower-cased,
 * `nameStart` where its last name begins.
 */
export function scoreOne(q: string, path: string, lower: string, nameStart: number): number {
  if (scratch.length < q.length) scratch = new Int32Array(q.length * 2);
  let score: number;
  if (locate(q, lower, nameStart, scratch)) {
    score = scorePositions(path, scratch, q.length) + BONUS_IN_NAME;
    if (scratch[0] === nameStart && lower.startsWith(q, nameStart)) score += BONUS_NAME_PREFIX;
  } else if (locate(q, lower, 0, scratch)) {
    score = scorePositions(path, scratch, q.length);
  } else {
    return NO_MATCH;
  }
  // Shorter paths win ties.
  return Math.max(0, SCORE_FLOOR + score - path.length);
}

/** The whole match of `path` (null when the query does not match it). */
export function matchOf(q: string, path: string, lower: string, nameStart: number, kind: FileMatch["kind"] = "file"): FileMatch | null {
  const score = scoreOne(q, path, lower, nameStart);
  return score === NO_MATCH ? null : { path, kind, score, indices: Array.from(scratch.subarray(0, q.length)) };
}

/** A query as the scorer compares it: lower case, without spaces. */
export function normalizeQuery(query: string): string {
  return query.toLowerCase().replace(/\s+/g, "");
}

/** Where the last name of `path` begins. */
export function nameStartOf(path: string): number {
  return path.lastIndexOf("/") + 1;
}

/** One file's match for `query`, or null when the query does not match it. */
export function scorePath(query: string, path: string): FileMatch | null {
  return matchOf(normalizeQuery(query), path, path.toLowerCase(), nameStartOf(path));
}
