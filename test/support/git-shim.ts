/**
 * A `git` of a test's own, first on PATH: a shell script that may log, wait or hang before (or
 * instead of) running the real git, for tests of how undo copes with a git that misbehaves.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface GitShim {
  /** The folder holding the shim (for its logs and marks, too). */
  dir: string;
  /** A PATH with the shim first. */
  path: string;
  /** The real git, by its absolute path. */
  realGit: string;
}

/** `body`: the script after `#!/bin/sh`; `$REAL_GIT` is the real git, `$SHIM_DIR` the shim's folder. */
export function makeGitShim(body: string): GitShim {
  const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-git-shim-"));
  const script = join(dir, "git");
  writeFileSync(script, `#!/bin/sh\nREAL_GIT='${realGit}'\nSHIM_DIR='${dir}'\n${body}\n`);
  chmodSync(script, 0o755);
  return { dir, path: `${dir}:${process.env.PATH ?? ""}`, realGit };
}

/** Runs `body` with the shim first on this process's PATH (for code that starts `git` by name). */
export async function withPathOf<T>(shim: GitShim, body: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = shim.path;
  try {
    return await body();
  } finally {
    process.env.PATH = saved;
  }
}
