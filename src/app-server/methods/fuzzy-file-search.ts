/**
 * `fuzzyFileSearch` and its experimental session form (`fuzzyFileSearch/sessionStart`,
 * `sessionUpdate`, `sessionStop`, answered by `fuzzyFileSearch/sessionUpdated` and
 * `sessionCompleted` notifications): the files and folders under the client's roots that best
 * match a query, searched with the TUI's own index and scorer (src/file-search/).
 *
 * As the reference: at most 50 results over all roots, best first (ties by path); `indices` count
 * characters (code points) of `path`; an empty query, a relative root or one that is no folder
 * give no results rather than an error; a later request with the same `cancellationToken` makes
 * an earlier one still waiting for its index answer empty. Files the permission profile denies
 * (the root's config) are never offered, as in the TUI.
 */
import { statSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { ERROR_CODES, invalidRequest, RpcError } from "../../app-server-protocol/jsonrpc.js";
import { fileIndexFor, STALE_AFTER_MS, type FileIndex } from "../../file-search/file-index.js";
import type { FileMatch } from "../../file-search/fuzzy-match.js";
import { deniedPathFilter } from "../../host/standalone.js";
import type { Connection } from "../connection.js";
import type { AppServer, Method } from "../server.js";

/** How many results a search answers, as the reference's. */
const MATCH_LIMIT = 50;

interface FuzzyFileSearchResult {
  root: string;
  path: string;
  match_type: "file" | "directory";
  file_name: string;
  score: number;
  indices: number[];
}

/** The roots worth searching: absolute paths of folders that exist. */
function searchableRoots(roots: string[]): string[] {
  return [...new Set(roots)].filter((root) => {
    if (!isAbsolute(root)) return false;
    try {
      return statSync(root).isDirectory();
    } catch {
      return false;
    }
  });
}

/** UTF-16 positions turned into code point positions (the reference counts characters). */
function codePointIndices(path: string, utf16: number[]): number[] {
  const out: number[] = [];
  let unit = 0;
  let point = 0;
  for (const target of utf16) {
    while (unit < target) {
      unit += (path.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
      point++;
    }
    out.push(point);
  }
  return out;
}

function toResult(root: string, match: FileMatch): FuzzyFileSearchResult {
  return { root, path: match.path, match_type: match.kind, file_name: basename(match.path), score: match.score, indices: codePointIndices(match.path, match.indices) };
}

/** Each root's denied-name check, taken again from its config as often as the file lists are. */
const deniedFilters = new Map<string, { at: number; denied: Promise<(absolutePath: string) => boolean> }>();

function deniedIn(server: AppServer, root: string): Promise<(absolutePath: string) => boolean> {
  const cached = deniedFilters.get(root);
  if (cached && Date.now() - cached.at < STALE_AFTER_MS) return cached.denied;
  const denied = deniedPathFilter(server.loadConfig({ cwd: root }));
  deniedFilters.set(root, { at: Date.now(), denied });
  return denied;
}

/**
 * The best matches the permission profile does not deny. They are checked after the search, so
 * only the best candidates pay for the check (several µs a path: checking a whole tree would
 * cost more than listing it); more are taken while denied ones leave too few.
 */
function visibleMatches(index: FileIndex, query: string, denied: (absolutePath: string) => boolean): FileMatch[] {
  for (let wanted = MATCH_LIMIT; ; wanted *= 4) {
    const found = index.search(query, wanted);
    const shown = found.filter((match) => !denied(join(index.root, match.path)));
    if (shown.length >= MATCH_LIMIT || found.length < wanted) return shown.slice(0, MATCH_LIMIT);
  }
}

/**
 * Searches every root (waiting for indexes still being built) and merges the best matches. An
 * empty query finds nothing, but still has the indexes built for the queries to come.
 */
async function search(server: AppServer, roots: string[], query: string): Promise<FuzzyFileSearchResult[]> {
  const searched = searchableRoots(roots).map((root) => ({ index: fileIndexFor(root, { folders: true }), denied: deniedIn(server, root) }));
  await Promise.all(searched.map(({ index }) => index.whenReady()));
  if (query.trim() === "") return [];
  const perRoot = await Promise.all(searched.map(async ({ index, denied }) => visibleMatches(index, query, await denied).map((match) => toResult(index.root, match))));
  const results = perRoot.flat();
  results.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return results.slice(0, MATCH_LIMIT);
}

/** The latest request per cancellation token, per client. */
const latestByToken = new WeakMap<Connection, Map<string, number>>();
let requestCount = 0;

const fuzzyFileSearch: Method = async ({ server, connection }, params) => {
  const query = params.string("query");
  const roots = params.array("roots");
  if (!roots.every((r) => typeof r === "string")) throw invalidRequest("Invalid request: `roots` must be a list of strings");
  const token = params.optionalString("cancellationToken");
  const mine = ++requestCount;
  let tokens = latestByToken.get(connection);
  if (token !== undefined) {
    if (!tokens) latestByToken.set(connection, (tokens = new Map()));
    tokens.set(token, mine);
  }
  const files = await search(server, roots as string[], query);
  if (token !== undefined && tokens?.get(token) !== mine) return { files: [] };
  if (token !== undefined) tokens?.delete(token);
  return { files };
};

/** A session: its roots, the query last asked for, and whether a search for it is on its way. */
interface Session {
  roots: string[];
  query: string;
  running: boolean;
  stopped: boolean;
}

const sessionsOf = new WeakMap<Connection, Map<string, Session>>();

function sessions(connection: Connection): Map<string, Session> {
  let map = sessionsOf.get(connection);
  if (!map) sessionsOf.set(connection, (map = new Map()));
  return map;
}

function requireExperimental(connection: Connection, method: string): void {
  if (!connection.experimentalApi) throw invalidRequest(`${method} requires experimentalApi capability`);
}

function sessionId(params: Parameters<Method>[1]): string {
  const id = params.string("sessionId");
  if (id === "") throw invalidRequest("sessionId must not be empty");
  return id;
}

/**
 * Runs the session's search for its latest query and reports it; queries that came in while a
 * search waited for the index are folded into one report of the newest.
 */
function runSession(server: AppServer, connection: Connection, id: string, session: Session): void {
  if (session.running) return;
  session.running = true;
  void (async () => {
    for (;;) {
      const query = session.query;
      const files = await search(server, session.roots, query).catch((err: unknown) => {
        server.options.log(`fuzzy file search failed: ${(err as Error).message}`);
        return [];
      });
      if (session.stopped) return;
      if (session.query !== query) continue;
      session.running = false;
      connection.notify("fuzzyFileSearch/sessionUpdated", { sessionId: id, query, files });
      connection.notify("fuzzyFileSearch/sessionCompleted", { sessionId: id });
      return;
    }
  })();
}

const sessionStart: Method = ({ server, connection }, params) => {
  requireExperimental(connection, "fuzzyFileSearch/sessionStart");
  const id = sessionId(params);
  const roots = params.array("roots");
  if (!roots.every((r) => typeof r === "string")) throw invalidRequest("Invalid request: `roots` must be a list of strings");
  if (roots.length === 0) throw new RpcError(ERROR_CODES.internalError, "failed to start fuzzy file search session: at least one search directory is required");
  const previous = sessions(connection).get(id);
  if (previous) previous.stopped = true;
  const session: Session = { roots: roots as string[], query: "", running: false, stopped: false };
  sessions(connection).set(id, session);
  runSession(server, connection, id, session);
  return Promise.resolve({});
};

const sessionUpdate: Method = ({ server, connection }, params) => {
  requireExperimental(connection, "fuzzyFileSearch/sessionUpdate");
  const id = sessionId(params);
  const query = params.string("query");
  const session = sessions(connection).get(id);
  if (!session) throw invalidRequest(`fuzzy file search session not found: ${id}`);
  session.query = query;
  runSession(server, connection, id, session);
  return Promise.resolve({});
};

const sessionStop: Method = ({ connection }, params) => {
  requireExperimental(connection, "fuzzyFileSearch/sessionStop");
  const id = sessionId(params);
  const session = sessions(connection).get(id);
  if (session) session.stopped = true;
  sessions(connection).delete(id);
  return Promise.resolve({});
};

export const fuzzyFileSearchMethods: Readonly<Record<string, Method>> = {
  fuzzyFileSearch,
  "fuzzyFileSearch/sessionStart": sessionStart,
  "fuzzyFileSearch/sessionUpdate": sessionUpdate,
  "fuzzyFileSearch/sessionStop": sessionStop,
};
