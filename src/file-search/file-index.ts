/**
 * An index of the files under a folder for fuzzy search, built once in the background: the
 * TUI's `@` popup and the app-server's `fuzzyFileSearch` both search through it.
 *
 * API:
 * - `fileIndexFor(root, { hidden?, folders? })`: the shared index of a folder (started on first call; a list
 *   older than `STALE_AFTER_MS` is refreshed in the background, the old one serving meanwhile,
 *   so files the agent created show up the next time someone searches).
 * - `new FileIndex(root, options)`: `state` ("building" | "ready" | "failed"), `error`, `size`,
 *   `source` ("git" | "walk"), `whenReady()`, `search(query, limit)` → `FileMatch[]` (best first;
 *   empty while building), `refresh()` (rebuild, keeping the old list until the new one is done),
 *   `age()`.
 *
 * A query that extends the previous one only rescans the previous matches.
 */
import { foldersOf, listFiles, type ListedFiles, type ListOptions } from "./list-files.js";
import { matchOf, nameStartOf, NO_MATCH, normalizeQuery, scoreOne, type FileMatch } from "./fuzzy-match.js";
import { errorMessage } from "../util/errors.js";

export type IndexState = "building" | "ready" | "failed";

export interface IndexOptions extends ListOptions {
  /** Lists the files; `listFiles` unless the caller has its own way (a remote machine, a test). */
  lister?: (root: string, options: ListOptions) => Promise<ListedFiles>;
  /** Files never offered (relative to the root): the ones the permission profile denies. The list waits for it. */
  hidden?: Promise<(relativePath: string) => boolean>;
  /** Offer the folders holding the files as well (the app-server's results have both). */
  folders?: boolean;
}

export class FileIndex {
  private paths: string[] = [];
  private lowers: string[] = [];
  private nameStarts = new Int32Array(0);
  /** `paths` from this index on are folders. */
  private firstFolder = 0;
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
      const paths = this.options.folders ? [...files, ...foldersOf(files)] : files;
      const nameStarts = new Int32Array(paths.length);
      const lowers = new Array<string>(paths.length);
      for (let i = 0; i < paths.length; i++) {
        const p = paths[i] as string;
        lowers[i] = p.toLowerCase();
        nameStarts[i] = nameStartOf(p);
      }
      this.paths = paths;
      this.firstFolder = files.length;
      this.lowers = lowers;
      this.nameStarts = nameStarts;
      this.origin = listed.source;
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

  private kindOf(i: number): FileMatch["kind"] {
    return i >= this.firstFolder ? "directory" : "file";
  }

  /** The best `limit` matches, best first; with an empty query, the shortest paths. */
  search(query: string, limit = 20): FileMatch[] {
    const q = normalizeQuery(query);
    const n = this.paths.length;
    if (q === "") {
      this.last = null;
      const order = Array.from({ length: n }, (_, i) => i);
      return topK(order, limit, (i) => -(this.paths[i] as string).length, (i) => ({ path: this.paths[i] as string, kind: this.kindOf(i), score: 0, indices: [] }));
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
    return bestIndex.map((i) => matchOf(q, this.paths[i] as string, this.lowers[i] as string, this.nameStarts[i] as number, this.kindOf(i)) as FileMatch);
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

/**
 * The index for `root`, built in the background on first use and kept for later searches.
 * `hidden` is asked for only when the index is made. Indexes that offer folders are kept apart
 * from those that do not.
 */
export function fileIndexFor(root: string, options: { hidden?: () => Promise<(relativePath: string) => boolean>; folders?: boolean } = {}): FileIndex {
  const key = `${options.folders ? "folders" : "files"}:${root}`;
  let index = shared.get(key);
  if (index === undefined) {
    const hidden = options.hidden?.();
    index = new FileIndex(root, { ...(hidden ? { hidden } : {}), folders: options.folders === true });
    shared.set(key, index);
  } else if (index.state !== "building" && index.age() > STALE_AFTER_MS) {
    void index.refresh();
  }
  return index;
}
