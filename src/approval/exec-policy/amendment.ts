/**
 * "Always allow commands that start with …": an approved prefix is appended to the user's
 * `$CODEX_HOME/rules/default.rules` as an allow rule (once; an identical rule already there is
 * not written again), as the reference's ApprovedExecpolicyAmendment does, and the session's
 * policy takes it at once.
 */
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import { readTextFile } from "../../util/bounded-read.js";
import { join } from "node:path";
import type { ExecPolicy } from "./policy.js";
import { PRIVATE_DIR_MODE } from "../../util/atomic-write.js";

export const DEFAULT_RULES_FILE = "default.rules";

export function amendmentRule(prefix: readonly string[]): string {
  return `prefix_rule(pattern=${JSON.stringify(prefix)}, decision="allow")`;
}

export function persistAmendment(codexHome: string, policy: ExecPolicy, prefix: readonly string[]): void {
  if (prefix.length === 0 || prefix.some((t) => typeof t !== "string")) throw new Error("the proposed prefix must be a non-empty list of strings");
  const folder = join(codexHome, "rules");
  const file = join(folder, DEFAULT_RULES_FILE);
  const rule = amendmentRule(prefix);
  mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
  const existing = existsSync(file) ? readTextFile(file) : "";
  if (!existing.split("\n").includes(rule)) {
    // One write of one line (O_APPEND): two sessions approving at once cannot interleave it.
    appendFileSync(file, `${existing === "" || existing.endsWith("\n") ? "" : "\n"}${rule}\n`, { mode: 0o600 });
  }
  policy.allowPrefix(prefix, `${file} (approved in this session)`);
}
