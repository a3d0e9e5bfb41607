/** Whether a process with this id exists (on this host); one owned by another user counts too. */
import { errorCode } from "./errors.js";
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else. ESRCH: there is none.
    return errorCode(err) === "EPERM";
  }
}
