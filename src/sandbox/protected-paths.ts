/**
 * The folders inside writable roots that stay read-only under every mechanism (`.git`, `.codex`
 * and the git directory a `.git` file points to), as real paths. Apart from the mechanisms so
 * that apply_patch's write scope can use them without loading one.
 */
import { lstatSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readTextFile } from "../util/bounded-read.js";
import { PROTECTED_SUBPATHS, shallowestFirst } from "./writable-roots.js";

/**
 * The read-only overlays for a set of writable roots: `<root>/.git` and `<root>/.codex` where
 * they exist, and, when `.git` is a file (a worktree or submodule) holding `gitdir: <path>`,
 * that directory as well, since writing there rewrites the repository just the same.
 */
export function protectedPaths(roots: readonly string[]): string[] {
  const found = new Set<string>();
  const add = (path: string): void => {
    try {
      found.add(realpathSync(path));
    } catch {
      // Missing: nothing to protect.
    }
  };
  for (const root of roots) {
    for (const name of PROTECTED_SUBPATHS) {
      const path = join(root, name);
      let isFile = false;
      try {
        const info = lstatSync(path);
        isFile = info.isFile();
      } catch {
        continue;
      }
      add(path);
      if (name === ".git" && isFile) {
        const gitdir = readGitdirFile(path);
        if (gitdir !== null) add(gitdir);
      }
    }
  }
  return [...found].sort(shallowestFirst);
}

/** The directory a `.git` file points to (`gitdir: <path>`, relative to the file), or null. */
export function readGitdirFile(gitFile: string): string | null {
  let text: string;
  try {
    text = readTextFile(gitFile); // a FIFO by that name would hang the sandbox's set-up
  } catch {
    return null;
  }
  const match = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text);
  if (!match?.[1]) return null;
  return resolve(dirname(gitFile), match[1]);
}
