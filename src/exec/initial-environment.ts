/**
 * Keeps codex-ts's own environment (an API key, tokens) out of reach of the commands it runs.
 *
 * `/proc/<pid>/environ` shows the environment a process was started with, read from its
 * memory, whatever the process did to its variables since. A command under the Landlock
 * fallback shares codex-ts's view of /proc, and a same-user (or root) process may read that file:
 * the kernel's check for it is a plain same-user test, which neither Landlock nor dropping
 * capabilities changes. So before the first command runs, codex-ts moves every variable into
 * storage the C library allocates (setting each to its own value does that) and overwrites the
 * original block with zeros through /proc/self/mem. Its environment works as before; the file
 * reads as empty. Every place that starts a command calls this first (before-spawn.ts).
 *
 * Under bubblewrap a command has its own /proc and cannot see codex-ts at all; reading another
 * process's memory (/proc/<pid>/mem, process_vm_readv) needs ptrace rights, which Landlock
 * denies a confined process over an unconfined one. Under danger-full-access nothing is hidden.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

let scrubbed = false;

/** The [start, end) addresses of this process's initial environment strings (proc(5) fields 50, 51). */
function environmentBlock(): [number, number] | null {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The command name (field 2) may hold spaces and parentheses: count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  return Number.isSafeInteger(start) && Number.isSafeInteger(end) && start > 0 && end > start ? [start, end] : null;
}

/**
 * Blanks this process's initial environment block once (Linux); false when it could not be done,
 * which leaves the environment readable as before.
 */
export function scrubInitialEnvironment(): boolean {
  if (scrubbed) return true;
  if (process.platform !== "linux") return false;
  try {
    const block = environmentBlock();
    if (block === null) return false;
    // Every variable now lives in a string the C library allocated: nothing points into the block.
    for (const [name, value] of Object.entries(process.env)) {
      if (value !== undefined) process.env[name] = value;
    }
    const [start, end] = block;
    const fd = openSync("/proc/self/mem", "r+");
    try {
      writeSync(fd, Buffer.alloc(end - start), 0, end - start, start);
    } finally {
      closeSync(fd);
    }
    scrubbed = true;
  } catch {
    return false;
  }
  return true;
}
