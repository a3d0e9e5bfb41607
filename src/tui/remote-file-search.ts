/**
 * The `@` file search of a remote session (`--remote`): every query is answered by the server's
 * `fuzzyFileSearch`, the app-server method the reference defines, so it works in any folder the
 * server can read (git or not) and with any server that speaks the protocol, the reference's too.
 *
 * The popup asks synchronously; the answer comes later. Until it does, the previous query's
 * matches stay on screen, and the popup is told to draw again when the new ones arrive. Answers
 * to recent queries are kept, so deleting characters shows matches at once. A later query makes
 * an earlier one still waiting on the server empty (the method's `cancellationToken`).
 */
import type { IndexState } from "../file-search/file-index.js";
import type { FileMatch } from "../file-search/fuzzy-match.js";
import type { SearchableIndex } from "./parts/file-search-popup.js";

/** One result of `fuzzyFileSearch`, as the protocol sends it (`indices` count code points). */
export interface RemoteFileMatch {
  path: string;
  match_type: "file" | "directory";
  score: number;
  indices?: number[] | null;
}

/** Sends `fuzzyFileSearch` to the server. */
export type FuzzyFileSearch = (params: { query: string; roots: string[]; cancellationToken: string }) => Promise<{ files: RemoteFileMatch[] }>;

/** How many queries' answers are kept. */
const REMEMBERED = 32;

let tokens = 0;

export class RemoteFileSearch implements SearchableIndex {
  state: IndexState = "ready";
  error: string | null = null;
  private readonly answers = new Map<string, FileMatch[]>();
  private shown: FileMatch[] = [];
  private asked: string | null = null;
  private listener: (() => void) | null = null;
  private readonly token = `tui-mention-${++tokens}`;

  constructor(
    private readonly root: string,
    private readonly ask: FuzzyFileSearch,
  ) {}

  search(query: string, limit: number): FileMatch[] {
    const known = this.answers.get(query);
    if (known !== undefined) {
      this.shown = known;
      return known.slice(0, limit);
    }
    // The server answers an empty query with nothing: there is nothing to ask.
    if (query === "") return [];
    if (this.asked !== query) {
      this.asked = query;
      void this.fetch(query);
    }
    return this.shown.slice(0, limit);
  }

  whenReady(): Promise<void> {
    return Promise.resolve();
  }

  /** Who to tell when an answer arrives (the popup on screen; a new one takes the place). */
  watch(listener: (() => void) | null): void {
    this.listener = listener;
  }

  private async fetch(query: string): Promise<void> {
    let matches: FileMatch[] | null = null;
    let failure: string | null = null;
    try {
      matches = (await this.ask({ query, roots: [this.root], cancellationToken: this.token })).files.map(toFileMatch);
    } catch (err) {
      failure = `the server's file search failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    // A later query was asked meanwhile: this answer may be the empty one a cancelled search
    // gets, and the later one is what to show.
    if (this.asked !== query) return;
    this.asked = null;
    if (matches !== null) this.remember(query, matches);
    this.state = failure === null ? "ready" : "failed";
    this.error = failure;
    this.listener?.();
  }

  private remember(query: string, matches: FileMatch[]): void {
    this.answers.delete(query);
    this.answers.set(query, matches);
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= REMEMBERED) break;
      this.answers.delete(oldest);
    }
  }
}

function toFileMatch(match: RemoteFileMatch): FileMatch {
  return { path: match.path, kind: match.match_type, score: match.score, indices: utf16Indices(match.path, match.indices ?? []) };
}

/** Code point positions (the protocol's) as UTF-16 positions (what the popup highlights by). */
function utf16Indices(path: string, points: readonly number[]): number[] {
  const out: number[] = [];
  let unit = 0;
  let point = 0;
  for (const target of points) {
    while (point < target && unit < path.length) {
      unit += (path.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
      point++;
    }
    out.push(unit);
  }
  return out;
}
