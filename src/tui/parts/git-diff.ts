/**
 * `/diff`: what the working tree changed against HEAD, new untracked files included, as git
 * prints it (`git diff HEAD`, then `git diff --no-index /dev/null <file>` for every untracked
 * file git does not ignore), coloured through the theme rather than by git, so NO_COLOR and
 * 16-colour terminals are honoured.
 *
 * API:
 * - `workingTreeDiff(cwd)`: `{ kind: "diff", text }` (empty text: no changes),
 *   `{ kind: "not_git", message }` outside a work tree, `{ kind: "error", message }` when git
 *   fails or is missing.
 * - `colorDiff(text)`: the diff's lines, styled (file headers bold, hunk headers coloured,
 *   added and removed lines green and red).
 * - `diffReport(cwd)`: the lines `/diff` shows: the coloured diff, or one sentence saying there
 *   are no changes, that the folder is not in a Git repository, or what went wrong.
 * Each takes the way git is run as an optional last argument: here by default, on an app-server's
 * machine for a remote session.
 */
import { execFile } from "node:child_process";
import { theme } from "./theme.js";
import { errorCode } from "../../util/errors.js";

/** git's well-known empty tree, the base for a repository without any commit yet. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const MAX_OUTPUT = 256 * 1024 * 1024;
const UNTRACKED_CONCURRENCY = 8;

export type DiffResult = { kind: "diff"; text: string } | { kind: "not_git"; message: string } | { kind: "error"; message: string };

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
  missing: boolean;
}

/** Runs `git -c core.quotepath=off ARGS` in a folder. */
export type GitRunner = (cwd: string, args: string[]) => Promise<GitRun>;

function localGit(cwd: string, args: string[]): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile("git", ["-c", "core.quotepath=off", ...args], { cwd, maxBuffer: MAX_OUTPUT, encoding: "utf8" }, (err, stdout, stderr) => {
      const errno = errorCode(err);
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
      resolve({ code, stdout, stderr, missing: errno === "ENOENT" });
    });
  });
}

export async function workingTreeDiff(cwd: string, git: GitRunner = localGit): Promise<DiffResult> {
  const top = await git(cwd, ["rev-parse", "--show-toplevel"]);
  if (top.missing) return { kind: "error", message: "git is not installed (or not on PATH), so there is no diff to show" };
  if (top.code !== 0) return { kind: "not_git", message: `${cwd} is not inside a Git repository, so there is no diff to show` };
  const root = top.stdout.trim();
  const head = await git(root, ["rev-parse", "--verify", "--quiet", "HEAD"]);
  const base = head.code === 0 ? "HEAD" : EMPTY_TREE;
  const [tracked, untracked] = await Promise.all([
    git(root, ["diff", "--no-color", "--no-ext-diff", base]),
    git(root, ["ls-files", "-z", "--others", "--exclude-standard"]),
  ]);
  if (tracked.code !== 0) return { kind: "error", message: `git diff failed: ${tracked.stderr.trim() || `exit status ${tracked.code}`}` };
  if (untracked.code !== 0) return { kind: "error", message: `git ls-files failed: ${untracked.stderr.trim() || `exit status ${untracked.code}`}` };
  const files = untracked.stdout.split("\0").filter((f) => f !== "");
  const parts = new Array<string>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < files.length; i = next++) {
      // Exit status 1 only says the files differ; the diff is on stdout either way.
      const run = await git(root, ["diff", "--no-color", "--no-ext-diff", "--no-index", "--", "/dev/null", files[i] as string]);
      parts[i] = run.code === 0 || run.code === 1 ? run.stdout : "";
    }
  };
  await Promise.all(Array.from({ length: Math.min(UNTRACKED_CONCURRENCY, files.length) }, worker));
  return { kind: "diff", text: tracked.stdout + parts.join("") };
}

export function colorDiff(text: string): string[] {
  const t = theme();
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let inHeader = false;
  return lines.map((line) => {
    if (line.startsWith("diff --git ")) {
      inHeader = true;
      return t.bold(line);
    }
    if (line.startsWith("@@")) {
      inHeader = false;
      return t.fg("accent", line);
    }
    if (inHeader) return t.bold(line); // index, mode, rename and ---/+++ lines
    if (line.startsWith("+")) return t.fg("added", line);
    if (line.startsWith("-")) return t.fg("removed", line);
    if (line.startsWith("\\")) return t.fg("muted", line);
    return line;
  });
}

export async function diffReport(cwd: string, git: GitRunner = localGit): Promise<string[]> {
  const t = theme();
  const result = await workingTreeDiff(cwd, git);
  if (result.kind === "not_git") return [t.fg("warning", result.message)];
  if (result.kind === "error") return [t.fg("error", result.message)];
  if (result.text === "") return [t.fg("muted", "No changes against HEAD, and no untracked files.")];
  return colorDiff(result.text);
}
