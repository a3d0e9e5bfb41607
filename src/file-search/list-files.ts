/**
 * The files under a folder, as relative paths with `/`, for fuzzy file search.
 *
 * Inside a git work tree `git ls-files --cached --others --exclude-standard` answers exactly what
 * git would consider (every nested .gitignore, .git/info/exclude and the global excludes file)
 * and is the fastest way to learn it; files deleted from the work tree are taken out. Elsewhere
 * the folder is walked, honouring `.gitignore` and `.ignore` files at every level (the `ignore`
 * package, loaded only then); `.git` folders are skipped and symbolic links are listed but never
 * entered, so a link loop cannot trap the walk. Either way the list is capped.
 */
import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { readTextFile } from "../util/bounded-read.js";

export interface ListOptions {
  /** Stop after this many files (default 250,000). */
  maxFiles?: number;
  /** Use git when the folder is in a work tree (default true). */
  useGit?: boolean;
}

export interface ListedFiles {
  files: string[];
  source: "git" | "walk";
}

const DEFAULT_MAX_FILES = 250_000;

export async function listFiles(root: string, options: ListOptions = {}): Promise<ListedFiles> {
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

/** The folders holding `files` (every level, each once), for a search that offers folders too. */
export function foldersOf(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.lastIndexOf("/"); slash > 0; slash = file.lastIndexOf("/", slash - 1)) {
      const folder = file.slice(0, slash);
      if (folders.has(folder)) break; // its parents are in already
      folders.add(folder);
    }
  }
  return [...folders].sort();
}
