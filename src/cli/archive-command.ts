/**
 * `codex-ts archive | unarchive | delete SESSION`: a thread found by id or name (see
 * rollout/lookup.ts) moved into `$CODEX_HOME/archived_sessions/`, back, or removed for good.
 * Deleting asks first, on a terminal only; `--force` skips the question and takes ids only, so a
 * script never deletes a thread picked by a name it did not mean.
 */
import { createInterface } from "node:readline/promises";
import { codexHome } from "../config/codex-home.js";
import {
  archiveRecordedThread,
  deleteRecordedThread,
  findRecordedThread,
  isThreadId,
  unarchiveRecordedThread,
  type FoundThread,
} from "../host/recorded-threads.js";

const label = (found: FoundThread): string => (found.name === null ? found.id : `${found.name} (${found.id})`);

function find(session: string, where: "active" | "archived"): FoundThread | null {
  const home = codexHome();
  const found = findRecordedThread(home, session, where);
  if (found === null) {
    const other = findRecordedThread(home, session, where === "active" ? "archived" : "active");
    const hint = other === null ? "" : where === "active" ? "; it is archived already" : "; it is not archived";
    process.stderr.write(`Error: no ${where === "active" ? "active" : "archived"} session matching '${session}'${hint}.\n`);
  }
  return found;
}

export function runArchive(session: string): number {
  const found = find(session, "active");
  if (found === null) return 1;
  archiveRecordedThread(codexHome(), found);
  process.stdout.write(`Archived session ${label(found)}.\n`);
  return 0;
}

export function runUnarchive(session: string): number {
  const found = find(session, "archived");
  if (found === null) return 1;
  unarchiveRecordedThread(codexHome(), found);
  process.stdout.write(`Unarchived session ${label(found)}.\n`);
  return 0;
}

export async function runDelete(session: string, opts: { force?: boolean }): Promise<number> {
  if (opts.force && !isThreadId(session)) {
    process.stderr.write("Error: --force takes a session id; a name must be confirmed at a terminal.\n");
    return 1;
  }
  const home = codexHome();
  const found = findRecordedThread(home, session, "active") ?? findRecordedThread(home, session, "archived");
  if (found === null) {
    process.stderr.write(`Error: no session matching '${session}'.\n`);
    return 1;
  }
  if (!opts.force) {
    if (!process.stdin.isTTY || !process.stderr.isTTY) {
      process.stderr.write("Error: deleting asks for confirmation at a terminal; without one, pass --force and the session's id.\n");
      return 1;
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(`Delete session ${label(found)} for good?\nIt cannot be undone. Continue? [y/N]: `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stderr.write("Nothing deleted.\n");
      return 0;
    }
  }
  deleteRecordedThread(home, found);
  process.stdout.write(`Deleted session ${label(found)}.\n`);
  return 0;
}
