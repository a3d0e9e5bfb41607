/**
 * The whole engine in one call, for the standalone `codex-ts apply_patch` command: parse, plan,
 * commit, and the text the reference's `apply_patch` program prints on stdout or stderr.
 */
import { PatchParseError, parsePatch } from "./parser.js";
import { planPatch } from "./plan.js";
import { commitPlan, summarizePlan } from "./commit.js";
import { errorMessage } from "../util/errors.js";

export interface PatchRunResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export async function applyPatchInDirectory(text: string, cwd: string): Promise<PatchRunResult> {
  try {
    const parsed = parsePatch(text);
    if (parsed.hunks.length === 0) return failure("No files were modified.");
    const plan = await planPatch(parsed, cwd);
    await commitPlan(plan);
    return { ok: true, stdout: summarizePlan(plan), stderr: "" };
  } catch (err) {
    if (err instanceof PatchParseError) return failure(err.cliMessage);
    return failure(errorMessage(err));
  }
}

function failure(message: string): PatchRunResult {
  return { ok: false, stdout: "", stderr: `${message}\n` };
}
