/**
 * The commit, branch and origin URL recorded in session_meta's `git`. The reference asks `git`
 * for them; reading the repository's files directly gives the same answers without spawning
 * three processes before the first model request.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { GitInfo } from "./format.js";

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** The repository's git dir for `cwd` (following a worktree's `gitdir:` file), or null. */
function findGitDir(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return dotGit;
      const pointer = /^gitdir:\s*(.+)$/m.exec(read(dotGit) ?? "")?.[1]?.trim();
      if (pointer) return isAbsolute(pointer) ? pointer : resolve(dir, pointer);
      return null;
    }
    if (dirname(dir) === dir) return null;
  }
}

function resolveRef(commonDir: string, gitDir: string, ref: string): string | undefined {
  for (const base of [gitDir, commonDir]) {
    const direct = read(join(base, ref))?.trim();
    if (direct && /^[0-9a-f]{40,64}$/.test(direct)) return direct;
  }
  for (const line of (read(join(commonDir, "packed-refs")) ?? "").split("\n")) {
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

export function gitInfo(cwd: string): GitInfo | undefined {
  const gitDir = findGitDir(cwd);
  if (!gitDir) return undefined;
  const head = read(join(gitDir, "HEAD"))?.trim();
  if (!head) return undefined;
  const common = read(join(gitDir, "commondir"))?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const info: GitInfo = {};
  const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
  const commit = ref ? resolveRef(commonDir, gitDir, ref) : /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
  if (commit) info.commit_hash = commit;
  if (ref?.startsWith("refs/heads/")) info.branch = ref.slice("refs/heads/".length);
  const url = originUrl(read(join(commonDir, "config")) ?? "");
  if (url) info.repository_url = url;
  return info;
}
