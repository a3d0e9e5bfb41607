/** Doctor checks of the machine: the runtime, free disk space, git, and the shell snapshot. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { captureShellSnapshot, SnapshotError } from "../../exec/shell-snapshot.js";
import { findOnPath } from "../../sandbox/bwrap.js";
import { packageVersion } from "../../util/version.js";
import { fail, ok, warning, type Finding } from "./report.js";
import { errorMessage } from "../../util/errors.js";

const GIB = 1024 ** 3;
/** Below these, sessions and snapshots may fail to write. */
const DISK_WARN_BYTES = 5 * GIB;
const DISK_FAIL_BYTES = 1 * GIB;
/** Start-up files slower than this make every login-shell command slow when snapshots are off. */
const SLOW_SNAPSHOT_MS = 2000;

export function runtimeCheck(): Finding {
  const major = Number(process.versions.node.split(".")[0]);
  const details = { "codex-ts": packageVersion(), node: process.version, executable: process.argv[1] ?? "?", platform: `${process.platform}-${process.arch}` };
  if (major < 20) return fail(`Node.js ${process.version} is too old`, "install Node.js 20 or newer", details);
  return ok(`codex-ts ${packageVersion()} on Node.js ${process.version}`, details);
}

export function diskCheck(codexHome: string): Finding {
  let free: number;
  // A CODEX_HOME not made yet will be made on the disk of its nearest existing parent.
  let existing = codexHome;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    const stats = statfsSync(existing);
    free = stats.bavail * stats.bsize;
  } catch (err) {
    return warning(`cannot measure free space at ${codexHome}: ${errorMessage(err)}`, "create CODEX_HOME (or point CODEX_HOME at a folder that exists)");
  }
  const gib = `${(free / GIB).toFixed(1)} GiB`;
  const details = { CODEX_HOME: codexHome, available: gib, "warning below": "5.0 GiB", "failure below": "1.0 GiB" };
  if (free < DISK_FAIL_BYTES) return fail(`only ${gib} free where sessions are written`, "free space on that disk, or move CODEX_HOME", details);
  if (free < DISK_WARN_BYTES) return warning(`${gib} free where sessions are written`, "free space on that disk before long sessions fill it", details);
  return ok(`${gib} free for sessions and snapshots`, details);
}

export function gitCheck(cwd: string): Finding {
  const git = findOnPath("git", cwd);
  if (git === null) return warning("git is not on PATH", "install git: exec refuses to run outside a repository without --skip-git-repo-check, and /diff and reviews need it");
  const version = spawnSync(git, ["--version"], { encoding: "utf8", timeout: 5000 });
  const root = spawnSync(git, ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8", timeout: 5000 });
  const details = { git, version: version.stdout.trim() || "?", repository: root.status === 0 ? root.stdout.trim() : "none here" };
  if (version.status !== 0) return fail(`${git} does not run`, "reinstall git", details);
  return ok(root.status === 0 ? "git works; this folder is in a repository" : "git works; this folder is not in a repository", details);
}

/** Runs the user's start-up files once, as a session does, into a throwaway folder. */
export async function shellSnapshotCheck(cwd: string, env: NodeJS.ProcessEnv, enabled: boolean): Promise<Finding> {
  const shell = env.SHELL ?? "/bin/sh";
  if (!enabled) return ok("shell snapshots are off (features.shell_snapshot = false): each command starts a login shell", { shell });
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-doctor-"));
  const started = performance.now();
  try {
    const strings = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === "string"));
    await captureShellSnapshot({ shell, codexHome: scratch, threadId: "doctor", cwd, env: strings });
    const ms = Math.round(performance.now() - started);
    const details = { shell, "start-up files took": `${ms} ms` };
    if (ms > SLOW_SNAPSHOT_MS) return warning(`${shell}'s start-up files take ${ms} ms`, "sessions start slower while they run; trim ~/.bashrc or ~/.zshrc", details);
    return ok(`snapshot of ${shell}'s start-up files made in ${ms} ms`, details);
  } catch (err) {
    const why = err instanceof SnapshotError ? err.message : String(err);
    return warning(`no snapshot of ${shell}: ${why}`, "commands still run, each in a login shell; fix the start-up files' errors, or set features.shell_snapshot = false", { shell });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
