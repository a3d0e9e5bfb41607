/**
 * The commit, branch and origin URL recorded in session_meta's `git`. The reference asks `git`
 * for them; reading the repository's files directly gives the same answers without spawning
 * three processes before the first model request.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isRefusedFile, readTextPrefix } from "../util/bounded-read.js";
import type { GitInfo } from "./format.js";

/**
 * Far more than any HEAD, ref or config needs; a large repository's packed-refs may be cut here,
 * and a ref past the cut is simply not resolved.
 */
const GIT_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** Told about a file of the repository that was refused (not a regular file). */
export type GitInfoWarn = (message: string) => void;

/**
 * The repository's file, or null when it is missing or not a regular file (a link to /dev/zero or
 * a FIFO in .git must not hang or fill memory: this is only metadata for the session file).
 */
function read(path: string, warn: GitInfoWarn): string | null {
  try {
    const { text, truncated } = readTextPrefix(path, GIT_FILE_MAX_BYTES);
    // Whole lines only: a line cut short could look like another ref.
    return truncated ? text.slice(0, text.lastIndexOf("\n") + 1) : text;
  } catch (err) {
    if (isRefusedFile(err)) warn(`${err.message}; the session file records no git details from it`);
    return null;
  }
}

/** The repository's git dir for `cwd` (following a worktree's `gitdir:` file), or null. */
function findGitDir(cwd: string, warn: GitInfoWarn): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const pointer = /^gitdir:\s*(.+)$/m.exec(read(dotGit, warn) ?? "")?.[1]?.trim();
      if (pointer) return isAbsolute(pointer) ? pointer : resolve(dir, pointer);
      return null;
    }
    if (dirname(dir) === dir) return null;
  }
}

function resolveRef(commonDir: string, gitDir: string, ref: string, warn: GitInfoWarn): string | undefined {
  for (const base of [gitDir, commonDir]) {
    const direct = read(join(base, ref), warn)?.trim();
    if (direct && /^[0-9a-f]{40,64}$/.test(direct)) return direct;
  }
  for (const line of (read(join(commonDir, "packed-refs"), warn) ?? "").split("\n")) {
    const [sha, name] = line.split(" ");
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return undefined;
}

/** `[remote "origin"] url`, as `git remote get-url origin` would print it. */
function originUrl(config: string): string | undefined {
  let inOrigin = false;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) inOrigin = /^\[remote\s+"origin"\]$/.test(line);
    else if (inOrigin) {
      const m = /^url\s*=\s*(.+)$/.exec(line);
      if (m?.[1]) return m[1].trim();
    }
  }
  return undefined;
}

export function gitInfo(cwd: string, warn: GitInfoWarn = () => {}): GitInfo | undefined {
  const gitDir = findGitDir(cwd, warn);
  if (!gitDir) return undefined;
  const head = read(join(gitDir, "HEAD"), warn)?.trim();
  if (!head) return undefined;
  const common = read(join(gitDir, "commondir"), warn)?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const info: GitInfo = {};
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  const commit = ref ? resolveRef(commonDir, gitDir, ref, warn) : /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
  if (commit) info.commit_hash = commit;
  if (ref?.startsWith("refs/heads/")) info.branch = ref.slice("refs/heads/".length);
  const url = originUrl(read(join(commonDir, "config"), warn) ?? "");
  if (url) info.repository_url = url;
  return info;
}
