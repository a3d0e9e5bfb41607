/**
 * `@` file search: an index of the files under a folder, built once in the background, and a
 * fuzzy scorer over it that gives the matched character positions for highlighting.
 *
 * API:
 * - `fileIndexFor(root)`: the shared `FileIndex` for a folder (started on first call; a list
 *   older than `STALE_AFTER_MS` is refreshed in the background, the old one serving meanwhile,
 *   so files the agent created show up the next time the popup opens).
 * - `new FileIndex(root, options)`: `state` ("building" | "ready" | "failed"), `error`, `size`,
 *   `source` ("git" | "walk"), `whenReady()`, `search(query, limit)` → `FileMatch[]` (best first;
 *   empty while building), `refresh()` (rebuild, keeping the old list until the new one is done).
 * - `listFiles(root, options)`: the file list itself, relative paths with `/`.
 * - `scorePath(query, path)`: one path's `FileMatch`, or null when the query does not match.
 * - `mentionText(path)`: the path as inserted into the prompt (quoted when it has spaces).
 *
 * Listing: inside a git work tree `git ls-files --cached --others --exclude-standard` answers
 * exactly what git would consider (every nested .gitignore, .git/info/exclude and the global
 * excludes file) and is the fastest way to learn it; files deleted from the work tree are taken
 * out. Elsewhere the folder is walked, honouring `.gitignore` and `.ignore` files at every level
 * (the `ignore` package, loaded only then); `.git` folders are skipped and symbolic links are
 * listed but never entered, so a link loop cannot trap the walk. Either way the list is capped.
 *
 * Scoring: every query character must appear in order (case-insensitively, spaces ignored).
 * Matches inside the file name beat matches spread over the folders; characters that start a
 * word (after `/`, `_`, `-`, `.`, a space, or a lower-to-upper case change) and runs of adjacent
 * characters score higher; gaps cost; shorter paths win ties. A query that extends the previous
 * one only rescans the previous matches.
 */
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { readTextFile } from "../../util/bounded-read.js";
import { join } from "node:path";
import { errorMessage } from "../../util/errors.js";

export interface FileMatch {
  path: string;
  score: number;
  /** UTF-16 indices into `path` of the matched characters, ascending. */
  indices: number[];
}

export interface ListOptions {
  /** Stop after this many files (default 250,000). */
  maxFiles?: number;
  /** Use git when the folder is in a work tree (default true). */
  useGit?: boolean;
}

export type IndexState = "building" | "ready" | "failed";

const DEFAULT_MAX_FILES = 250_000;

export async function listFiles(root: string, options: ListOptions = {}): Promise<{ files: string[]; source: "git" | "walk" }> {
  const max = options.maxFiles ?? DEFAULT_MAX_FILES;
  if (options.useGit !== false) {
    const files = await gitFiles(root, max);
    if (files !== null) return { files, source: "git" };
  }
  return { files: await walkFiles(root, max), source: "walk" };
}

/** The git listing, or null when `root` is not in a work tree (or git is missing). */
async function gitFiles(root: string, max: number): Promise<string[] | null> {
  const [listed, deleted] = await Promise.all([
    gitNulList(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]),
    gitNulList(root, ["ls-files", "-z", "--deleted"]),
  ]);
  if (listed === null) return null;
  const gone = new Set(deleted ?? []);
  const files: string[] = [];
  let previous = "";
  for (const file of listed) {
    // A file with unmerged stages is listed once per stage.
    if (file === previous || gone.has(file)) continue;
    previous = file;
    files.push(file);
    if (files.length >= max) break;
  }
  return files;
}

function gitNulList(cwd: string, args: string[]): Promise<string[] | null> {
  return new Promise((resolve) => {
    const child = spawn("git", ["-c", "core.quotepath=off", ...args], { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", () => resolve(null));
    child.on("close", (code) => {
      if (code !== 0) return resolve(null);
      const text = Buffer.concat(chunks).toString("utf8");
      resolve(text === "" ? [] : text.split("\0").filter((p) => p !== ""));
    });
  });
}

interface Matcher {
  /** The folder the ignore file sits in, relative to the root ("" for the root), with a trailing `/`. */
  base: string;
  test(path: string): { ignored: boolean; unignored: boolean };
}

const IGNORE_FILES = [".gitignore", ".ignore"];
const WALK_CONCURRENCY = 16;

async function walkFiles(root: string, max: number): Promise<string[]> {
  // ignore is CommonJS: its module object is the factory, which also carries itself as `default`.
  const ignore = (await import("ignore")).default.default;
  const files: string[] = [];
  const queue: { rel: string; matchers: Matcher[] }[] = [{ rel: "", matchers: [] }];

  const ignored = (matchers: Matcher[], rel: string, dir: boolean): boolean => {
    // The deepest ignore file that says anything about the path decides, as in git.
    for (let i = matchers.length - 1; i >= 0; i--) {
      const m = matchers[i] as Matcher;
      const sub = rel.slice(m.base.length) + (dir ? "/" : "");
      const verdict = m.test(sub);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  };

  const visit = async (rel: string, inherited: Matcher[]): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip it, as git would
    }
    const matchers = [...inherited];
    for (const name of IGNORE_FILES) {
      if (!entries.some((e) => e.name === name && e.isFile())) continue;
      try {
        const ig = ignore().add(readTextFile(join(root, rel, name)));
        matchers.push({
          base: rel === "" ? "" : `${rel}/`,
          test: (p) => {
            try {
              return ig.test(p);
            } catch {
              return { ignored: false, unignored: false }; // a name `ignore` refuses to judge
            }
          },
        });
      } catch {
        // an unreadable ignore file ignores nothing
      }
    }
    for (const entry of entries) {
      if (files.length >= max) return;
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === ".git" || ignored(matchers, path, true)) continue;
        queue.push({ rel: path, matchers });
      } else if (!ignored(matchers, path, false)) {
        files.push(path);
      }
    }
  };

  // Several readdirs at once; a folder's subfolders join the queue as it is read.
  await new Promise<void>((resolve) => {
    let active = 0;
    const pump = (): void => {
      while (active < WALK_CONCURRENCY && files.length < max) {
        const job = queue.shift();
        if (job === undefined) break;
        active++;
        void visit(job.rel, job.matchers).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0) resolve();
    };
    pump();
  });
  files.length = Math.min(files.length, max);
  return files.sort();
}

// ---- scoring ----

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
/** What `scoreOne` answers for a path the query does not match. */
const NO_MATCH = -0x3fffffff;

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
 * The score of `path` for the (already lower-cased, space-free) query, or NO_MATCH when it
 * does not match; the matched positions are left in `scratch`.
 */
function scoreOne(q: string, path: string, lower: string, nameStart: number): number {
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
  return score - path.length;
}

function matchOf(q: string, path: string, lower: string, nameStart: number): FileMatch | null {
  const score = scoreOne(q, path, lower, nameStart);
  return score === NO_MATCH ? null : { path, score, indices: Array.from(scratch.subarray(0, q.length)) };
}

function normalizeQuery(query: string): string {
  return query.toLowerCase().replace(/\s+/g, "");
}

function nameStartOf(path: string): number {
  return path.lastIndexOf("/") + 1;
}

export function scorePath(query: string, path: string): FileMatch | null {
  return matchOf(normalizeQuery(query), path, path.toLowerCase(), nameStartOf(path));
}

/** The path as the composer inserts it: quoted when it holds whitespace or quotes. */
export function mentionText(path: string): string {
  return /[\s"']/.test(path) ? JSON.stringify(path) : path;
}

export interface IndexOptions extends ListOptions {
  /** Lists the files; `listFiles` unless a test supplies its own. */
  lister?: (root: string, options: ListOptions) => Promise<{ files: string[]; source: "git" | "walk" }>;
  /** Files never offered (relative to the root): the ones the permission profile denies. The list waits for it. */
  hidden?: Promise<(relativePath: string) => boolean>;
}

export class FileIndex {
  private paths: string[] = [];
  private lowers: string[] = [];
  private nameStarts = new Int32Array(0);
  private building: Promise<void>;
  /** When the current list was taken (ms since the epoch); 0 before the first one. */
  private builtAt = 0;
  private rebuilding = false;
  private current: IndexState = "building";
  private failure: string | null = null;
  private origin: "git" | "walk" | null = null;
  /** The last query and the indexes of the paths it matched, for narrowing the next one. */
  private last: { q: string; hits: Int32Array } | null = null;

  constructor(
    readonly root: string,
    private readonly options: IndexOptions = {},
  ) {
    this.building = this.build();
  }

  get state(): IndexState {
    return this.current;
  }

  get error(): string | null {
    return this.failure;
  }

  get size(): number {
    return this.paths.length;
  }

  get source(): "git" | "walk" | null {
    return this.origin;
  }

  /** Resolves once the current build has finished (whether it worked or not). */
  whenReady(): Promise<void> {
    return this.building;
  }

  /** Lists the files again; searches keep using the previous list until the new one is in. */
  refresh(): Promise<void> {
    if (!this.rebuilding) this.building = this.build();
    return this.building;
  }

  /** How old the current list is, in ms (Infinity before the first one). */
  age(now = Date.now()): number {
    return this.builtAt === 0 ? Number.POSITIVE_INFINITY : now - this.builtAt;
  }

  private async build(): Promise<void> {
    this.rebuilding = true;
    try {
      const lister = this.options.lister ?? listFiles;
      const [listed, hidden] = await Promise.all([lister(this.root, this.options), this.options.hidden]);
      const files = hidden === undefined ? listed.files : listed.files.filter((file) => !hidden(file));
      const source = listed.source;
      const nameStarts = new Int32Array(files.length);
      const lowers = new Array<string>(files.length);
      for (let i = 0; i < files.length; i++) {
        const f = files[i] as string;
        lowers[i] = f.toLowerCase();
        nameStarts[i] = nameStartOf(f);
      }
      this.paths = files;
      this.lowers = lowers;
      this.nameStarts = nameStarts;
      this.origin = source;
      this.last = null;
      this.current = "ready";
      this.failure = null;
      this.builtAt = Date.now();
      // One throwaway search compiles the scorer now rather than on the user's first keystroke
      // (the first search over 100,000 paths costs several times a warm one).
      this.search("e", 1);
      this.last = null;
    } catch (err) {
      if (this.paths.length === 0) this.current = "failed";
      this.failure = `could not list the files under ${this.root}: ${errorMessage(err)}`;
    } finally {
      this.rebuilding = false;
    }
  }

  /** The best `limit` matches, best first; with an empty query, the shortest paths. */
  search(query: string, limit = 20): FileMatch[] {
    const q = normalizeQuery(query);
    const n = this.paths.length;
    if (q === "") {
      this.last = null;
      const order = Array.from({ length: n }, (_, i) => i);
      return topK(order, limit, (i) => -(this.paths[i] as string).length, (i) => ({ path: this.paths[i] as string, score: 0, indices: [] }));
    }
    // Narrow from the previous query's hits when this query extends it.
    const from = this.last !== null && q.startsWith(this.last.q) ? this.last.hits : null;
    const count = from === null ? n : from.length;
    const hits = new Int32Array(count);
    let hitCount = 0;
    const bestScore: number[] = [];
    const bestIndex: number[] = [];
    for (let c = 0; c < count; c++) {
      const i = from === null ? c : (from[c] as number);
      const score = scoreOne(q, this.paths[i] as string, this.lowers[i] as string, this.nameStarts[i] as number);
      if (score === NO_MATCH) continue;
      hits[hitCount++] = i;
      insertBounded(bestScore, bestIndex, score, i, limit);
    }
    this.last = { q, hits: hits.slice(0, hitCount) };
    return bestIndex.map((i) => matchOf(q, this.paths[i] as string, this.lowers[i] as string, this.nameStarts[i] as number) as FileMatch);
  }
}

/** Keeps `scores`/`items` sorted best first and at most `limit` long. */
function insertBounded(scores: number[], items: number[], score: number, item: number, limit: number): void {
  if (limit <= 0) return;
  if (scores.length === limit && score <= (scores[limit - 1] as number)) return;
  let at = scores.length;
  while (at > 0 && score > (scores[at - 1] as number)) at--;
  scores.splice(at, 0, score);
  items.splice(at, 0, item);
  if (scores.length > limit) {
    scores.pop();
    items.pop();
  }
}

function topK<T>(order: number[], limit: number, score: (i: number) => number, make: (i: number) => T): T[] {
  const scores: number[] = [];
  const items: number[] = [];
  for (const i of order) insertBounded(scores, items, score(i), i, limit);
  return items.map(make);
}

/** A list older than this is taken again (in the background) when the index is asked for. */
export const STALE_AFTER_MS = 30_000;

const shared = new Map<string, FileIndex>();

/** The index for `root`, built in the background on first use and kept for later searches. */
export function fileIndexFor(root: string, hidden?: Promise<(relativePath: string) => boolean>): FileIndex {
  let index = shared.get(root);
  if (index === undefined) {
    index = new FileIndex(root, hidden ? { hidden } : {});
    shared.set(root, index);
  } else if (index.state !== "building" && index.age() > STALE_AFTER_MS) {
    void index.refresh();
  }
  return index;
}
