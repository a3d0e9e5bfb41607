/**
 * Shell snapshots: the user's start-up files run once per session instead of once per command.
 *
 * When a session starts, its user's shell runs as a login shell in the background, sources the
 * start-up files and dumps what they left behind (functions, options, aliases, exported
 * variables) into `$CODEX_HOME/shell_snapshots/<thread id>.<pid>-<n>.sh`. Commands that would have
 * started a login shell (`bash -lc SCRIPT`) then start a plain shell that sources that file
 * first (see snapshot-wrapper.ts). The file is checked by sourcing it once before it is used,
 * removed when the session ends, and files left by processes that died are removed by the next
 * session. A snapshot that cannot be made leaves commands on login shells, as before.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, unlinkSync } from "node:fs";
import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SNAPSHOT_MARKER, snapshotScript, snapshotShellKind, type SnapshotShellKind } from "./shell-snapshot-scripts.js";
import { wrapWithSnapshot } from "./snapshot-wrapper.js";
import { processAlive } from "../util/process-alive.js";
import { PRIVATE_DIR_MODE } from "../util/atomic-write.js";
import { errorMessage } from "../util/errors.js";

export const SNAPSHOT_DIR = "shell_snapshots";
/** Start-up files slower than this are treated as broken (the reference's bound too). */
export const SNAPSHOT_TIMEOUT_MS = 10_000;
/** How long a shell stopped at the time limit has to run its EXIT traps before it is killed. */
const KILL_GRACE_MS = 2_000;
/** Linux never hands out a pid above this; bigger numbers in a file name are not ours. */
const MAX_PID = 4_194_304;
/** Numbers the snapshots of one process, so a thread resumed in the same process gets its own file. */
let sequence = 0;

/** Snapshot files of this process still in place, removed on exit if nobody got to them. */
const liveFiles = new Set<string>();
let exitHookInstalled = false;

/** Registers a file of this process for removal at exit (once the process-wide hook is in). */
function track(path: string): void {
  liveFiles.add(path);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const file of liveFiles) {
      try {
        unlinkSync(file);
      } catch {
        // Already removed.
      }
    }
  });
}

export interface ShellSnapshotFile {
  path: string;
  /** The directory the start-up files ran in; commands elsewhere get a login shell. */
  cwd: string;
  /** The shell that made the snapshot and that sources it. */
  shell: string;
  kind: SnapshotShellKind;
}

/** Why a snapshot could not be made, in words meant for the user. */
export class SnapshotError extends Error {}

export interface CaptureOptions {
  shell: string;
  codexHome: string;
  threadId: string;
  cwd: string;
  /** The environment commands get (shell_environment_policy applied), so the snapshot starts from it. */
  env: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Runs the user's start-up files once and writes the checked snapshot file. */
export async function captureShellSnapshot(o: CaptureOptions): Promise<ShellSnapshotFile> {
  const kind = snapshotShellKind(o.shell);
  if (!kind) throw new SnapshotError(`${o.shell} is not a shell codex-ts can snapshot (bash and zsh are)`);
  const dir = join(o.codexHome, SNAPSHOT_DIR);
  const stem = join(dir, `${o.threadId}.${process.pid}-${++sequence}`);
  const temp = `${stem}.tmp`;
  const errors = `${stem}.err.tmp`;
  try {
    // Start-up files export tokens and the like: only the user may read what they left. Made
    // at once (like the files runShell opens), so the shell starts while the session is still
    // being set up rather than at its next pause, when the first command would wait on it.
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    track(temp);
    track(errors);
    await runShell(o, ["-lc", snapshotScript(kind)], temp, errors);
    const raw = await readFile(temp, "utf8");
    // Whatever the start-up files printed comes before the marker line.
    const at = raw.startsWith(`${SNAPSHOT_MARKER}\n`) ? 0 : raw.indexOf(`\n${SNAPSHOT_MARKER}\n`);
    if (at < 0) throw new SnapshotError(`${o.shell} printed no snapshot`);
    await writeFile(temp, raw.slice(at === 0 ? 0 : at + 1));
    // A file that does not source cleanly would break every command; check it once now.
    await runShell(o, ["-c", `set -e; . '${temp.replace(/'/g, `'"'"'`)}'`], null, errors);
    await rename(temp, `${stem}.sh`);
  } catch (err) {
    await rm(temp, { force: true });
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(errorMessage(err));
  } finally {
    await rm(errors, { force: true });
    liveFiles.delete(temp);
    liveFiles.delete(errors);
  }
  return { path: `${stem}.sh`, cwd: o.cwd, shell: o.shell, kind };
}

/**
 * Runs the shell detached from the terminal (its own process group, no stdin), so start-up
 * files cannot take over the user's terminal; its output goes to files, not pipes. It is done
 * when the shell exits, even if something it started in the background is still running.
 *
 * Start-up files are never cut short when the session ends first: they hold locks (`pyenv
 * rehash` creates one in its shims folder that every later shell waits a minute on if it is
 * left behind) and half-written state. The shell finishes on its own and its output is thrown
 * away. Only one that overruns the time limit is stopped, with SIGTERM (EXIT traps run), then
 * SIGKILL after a grace period.
 */
async function runShell(o: CaptureOptions, args: string[], stdoutFile: string | null, stderrFile: string): Promise<void> {
  const out = stdoutFile === null ? null : openSync(stdoutFile, "w", 0o600);
  let err: number;
  try {
    err = openSync(stderrFile, "w", 0o600);
  } catch (e) {
    if (out !== null) closeSync(out);
    throw e;
  }
  try {
    await new Promise<void>((done, fail) => {
      if (o.signal?.aborted) return fail(new SnapshotError("the session ended"));
      const child = spawn(o.shell, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", out ?? "ignore", err], detached: true });
      const timeoutMs = o.timeoutMs ?? SNAPSHOT_TIMEOUT_MS;
      let exited = false;
      const signalGroup = (signal: NodeJS.Signals): void => {
        try {
          if (child.pid !== undefined && !exited) process.kill(-child.pid, signal);
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => {
        signalGroup("SIGTERM");
        setTimeout(() => signalGroup("SIGKILL"), KILL_GRACE_MS).unref();
        leave(`the start-up files took longer than ${timeoutMs / 1000} s`);
      }, timeoutMs);
      const onAbort = (): void => leave("the session ended");
      const settle = (): void => {
        clearTimeout(timer);
        o.signal?.removeEventListener("abort", onAbort);
      };
      // Nothing waits for the shell any more, and a process that is done must not stay up for it.
      const leave = (why: string): void => {
        settle();
        child.unref();
        fail(new SnapshotError(why));
      };
      o.signal?.addEventListener("abort", onAbort, { once: true });
      child.on("error", (e) => {
        settle();
        fail(new SnapshotError(`${o.shell} could not be started: ${e.message}`));
      });
      child.on("exit", (code, signal) => {
        exited = true;
        settle();
        if (code === 0) return done();
        void lastLine(stderrFile).then((detail) =>
          fail(new SnapshotError(`${o.shell} ${signal ? `was killed by ${signal}` : `exited with status ${code}`}${detail ? `: ${detail}` : ""}`)),
        );
      });
    });
  } finally {
    if (out !== null) closeSync(out);
    closeSync(err);
  }
}

/** The last non-empty line of a (small) file, or "" when there is none. */
async function lastLine(path: string): Promise<string> {
  try {
    const text = await readFile(path, "utf8");
    return text.trim().split("\n").at(-1)?.slice(-500) ?? "";
  } catch {
    return "";
  }
}

/**
 * Removes snapshot files whose process has ended (a session that crashed or was killed never
 * removed its own). Files named in another way (the reference's, which share the folder when
 * CODEX_HOME is shared) are left alone.
 */
export async function removeStaleSnapshots(codexHome: string): Promise<void> {
  const dir = join(codexHome, SNAPSHOT_DIR);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const match = /^[^.]+\.(\d+)-\d+\.(sh|tmp|err\.tmp)$/.exec(name);
      const pid = match ? Number(match[1]) : NaN;
      if (!(pid > 0 && pid <= MAX_PID) || processAlive(pid)) return;
      await rm(join(dir, name), { force: true });
    }),
  );
}

export interface SessionShellSnapshotOptions extends Omit<CaptureOptions, "signal"> {
  /** Told once, with the reason, when no snapshot could be made. */
  onFailure(reason: string): void;
}

/** One session's snapshot: made in the background at start, removed at the end. */
export class SessionShellSnapshot {
  private readonly ended = new AbortController();
  private readonly ready: Promise<ShellSnapshotFile | null>;
  private file: ShellSnapshotFile | null = null;

  constructor(options: SessionShellSnapshotOptions) {
    const { onFailure, ...capture } = options;
    void removeStaleSnapshots(options.codexHome).catch(() => undefined);
    this.ready = captureShellSnapshot({ ...capture, signal: this.ended.signal }).then(
      (file) => {
        track(file.path);
        this.file = file;
        // Finished just as the session ended: nobody will use it.
        if (this.ended.signal.aborted) this.dispose();
        return this.file;
      },
      (err: unknown) => {
        if (!this.ended.signal.aborted) onFailure(errorMessage(err));
        return null;
      },
    );
  }

  /** Resolves when the snapshot is made or has failed; null when there is none. */
  settled(): Promise<ShellSnapshotFile | null> {
    return this.ready;
  }

  /**
   * What to spawn for `argv`: the snapshot wrapper for a login-shell command run in the
   * session's directory, `argv` itself otherwise. A command that comes while the snapshot is
   * still being made waits for it: a login shell would spend as long running the same files.
   * `keep` names variables whose value in the command's environment must win over the
   * snapshot's (shell_environment_policy's `set`). An aborted `signal` (an interrupted turn)
   * ends the wait.
   */
  async spawnArgv(argv: string[], cwd: string, keep: readonly string[], signal?: AbortSignal): Promise<string[]> {
    if (argv[1] !== "-lc" || this.ended.signal.aborted) return argv;
    const file = await this.readyUnless(signal);
    // The file may have been removed under us (another tool cleaning the folder): login shell.
    if (!file || resolve(file.cwd) !== resolve(cwd) || !existsSync(file.path)) return argv;
    return wrapWithSnapshot(argv, file, keep) ?? argv;
  }

  /** The snapshot, or null as soon as `signal` is aborted (its listener is removed either way). */
  private async readyUnless(signal: AbortSignal | undefined): Promise<ShellSnapshotFile | null> {
    if (!signal) return this.ready;
    if (signal.aborted) return null;
    let onAbort = (): void => undefined;
    const aborted = new Promise<null>((done) => {
      onAbort = () => done(null);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([this.ready, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Ends a capture still running (it cleans up after itself) and removes the file. Synchronous,
   * so a session's shutdown is not held up by it.
   */
  dispose(): void {
    this.ended.abort();
    const file = this.file;
    if (!file) return;
    this.file = null;
    liveFiles.delete(file.path);
    try {
      unlinkSync(file.path);
    } catch {
      // Already removed.
    }
  }
}
