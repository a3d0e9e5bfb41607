/** Process checks shared by tests that kill process trees. */
import { readFileSync } from "node:fs";

/** Zombies count as dead: an orphan waits for init to reap it, which can take a while here. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no procfs: trust kill(0)
  }
}
