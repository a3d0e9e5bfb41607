/**
 * Every process a session starts ends with codex-ts, however codex-ts ends: a normal exit, a
 * crash, or `kill -9`, which leaves no chance to clean up. Commands run in process groups of
 * their own; each group is registered with a small watchdog (a shell, started once) that reads
 * registrations from a pipe whose other end only codex-ts holds. When codex-ts is gone the pipe
 * reaches end-of-file, whatever killed it, and the watchdog kills every group still registered.
 *
 * bubblewrap already ends a sandbox with its parent (a PID namespace and --die-with-parent);
 * the watchdog covers the commands that have no such parent: the Landlock fallback and
 * danger-full-access. A group is registered until it is empty (a leader's background jobs keep
 * it alive after the leader exits), which is checked when the leader exits and every few
 * seconds after, so that a group id is never held long enough to be reused by someone else.
 * A process that leaves its group on purpose (setsid, a daemon) is not followed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeSync } from "node:fs";
import type { Socket } from "node:net";
import { errorCode } from "../util/errors.js";

/** How often registered groups whose leader has exited are checked for being empty. */
const EMPTY_CHECK_MS = 2_000;

// Ignores the signals a terminal or a group kill aimed at codex-ts would also send it, reads
// "+ID" / "-ID" lines, and at end of input kills what is left.
const WATCHDOG_SCRIPT = [
  "trap '' HUP INT QUIT TERM TSTP TTIN TTOU",
  'groups=""',
  "while IFS= read -r line; do",
  "  id=${line#?}",
  '  case $line in',
  '    +*) groups="$groups $id" ;;',
  '    -*) kept=""; for g in $groups; do [ "$g" = "$id" ] || kept="$kept $g"; done; groups=$kept ;;',
  "  esac",
  "done",
  // dash's kill takes no "--": after the signal, "-ID" is a process group.
  'for g in $groups; do kill -KILL "-$g" 2>/dev/null; done',
].join("\n");

let watchdog: ChildProcess | null | undefined;
const registered = new Set<number>();
const leaderGone = new Set<number>();
let checkTimer: NodeJS.Timeout | undefined;

/**
 * Starts the watchdog if it is not running yet. Called before a command is spawned: starting a
 * process can take a while on a loaded machine, and a command that ran meanwhile would be
 * unregistered if codex-ts died in that time.
 */
export function startWatchdog(): void {
  started();
}

function started(): ChildProcess | null {
  if (watchdog !== undefined) return watchdog;
  if (process.platform === "win32") return (watchdog = null);
  try {
    // Its own session, so a terminal's signals for codex-ts's group do not reach it, and none of
    // codex-ts's environment: a long-lived process's /proc/<pid>/environ is readable by commands.
    const child = spawn("/bin/sh", ["-c", WATCHDOG_SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true, env: { PATH: "/usr/bin:/bin" } });
    child.on("error", () => (watchdog = null));
    child.stdin?.on("error", () => undefined);
    child.unref();
    // Neither the watchdog nor the pipe to it may keep codex-ts running.
    (child.stdin as Socket | null)?.unref();
    watchdog = child;
  } catch {
    watchdog = null;
  }
  return watchdog;
}

/**
 * Writes a line to the watchdog at once. A stream write may still be queued when codex-ts is
 * killed a moment later (the very case the watchdog exists for), so the pipe's descriptor is
 * written directly; only if that is not possible (no descriptor, a full pipe) does the stream
 * take the line.
 */
function send(line: string): void {
  const stdin = started()?.stdin;
  if (!stdin || stdin.destroyed) return;
  const fd = (stdin as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  if (typeof fd === "number" && fd >= 0) {
    try {
      if (writeSync(fd, `${line}\n`) === Buffer.byteLength(line) + 1) return;
    } catch {
      // EAGAIN on a full pipe: the stream queues it instead.
    }
  }
  stdin.write(`${line}\n`);
}

/** Registers the process group a command leads (its pid, spawned detached). */
export function watchProcessGroup(pgid: number | undefined): void {
  if (pgid === undefined || registered.has(pgid)) return;
  registered.add(pgid);
  send(`+${pgid}`);
}

/**
 * The group's leader exited: the group is released once nobody is left in it, now or at a
 * later check.
 */
export function leaderExited(pgid: number | undefined): void {
  if (pgid === undefined || !registered.has(pgid)) return;
  leaderGone.add(pgid);
  releaseEmptyGroups();
  if (leaderGone.size > 0 && checkTimer === undefined) {
    checkTimer = setInterval(releaseEmptyGroups, EMPTY_CHECK_MS);
    checkTimer.unref();
  }
}

function releaseEmptyGroups(): void {
  for (const pgid of leaderGone) {
    if (groupAlive(pgid)) continue;
    leaderGone.delete(pgid);
    registered.delete(pgid);
    send(`-${pgid}`);
  }
  if (leaderGone.size === 0 && checkTimer !== undefined) {
    clearInterval(checkTimer);
    checkTimer = undefined;
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === "EPERM";
  }
}
