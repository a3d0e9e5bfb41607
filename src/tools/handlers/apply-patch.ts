/**
 * The apply_patch tool, and the same path for shell calls that run `apply_patch`:
 *
 *   parse ─▶ denied paths? ─▶ plan (reads files) ─▶ safety check ─▶ [ask the user] ─▶ begin event ─▶ commit ─▶ end event
 *
 * A patch touching a path the permission profile denies (directly, through a symlink or as a
 * hard link) is refused before any file is read, whatever the sandbox policy.
 * A patch that cannot be parsed or located is refused before any event or write ("verification
 * failed", so the model can resample); a patch that fails while writing is rolled back and
 * reported as failed, with its error, to both the user and the model.
 *
 * In an editor that offers its files (TurnServices.editorFiles, the ACP server), the patch reads
 * the editor's buffers and rewrites files through it, with the paths pinned where they led when
 * the patch was checked (patch/editor-files.ts).
 */
import { askUser, isApproval } from "../../approval/ask-user.js";
import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import type { FileChange } from "../../protocol/events.js";
import { isPatchText, parsePatch } from "../../patch/parser.js";
import { pathsWrittenBy, planPatch } from "../../patch/plan.js";
import { commitPlan, summarizePlan } from "../../patch/commit.js";
import { commitPlanThroughEditor, pinLocations, readThroughEditor } from "../../patch/editor-files.js";
import type { EditorFiles } from "../../protocol/editor-files.js";
import { extractApplyPatchInvocation, shellScriptOf } from "../../patch/invocation.js";
import { unifiedDiff } from "../../patch/unified-diff.js";
import type { ParsedPatch, PatchPlan } from "../../patch/types.js";
import type { FileSystemGuard } from "../../sandbox/fs-guard.js";
import { assessPatchSafety, grantReason } from "../../approval/patch-safety.js";
import { resolveWorkdir } from "../turn-context.js";
import { formatFreeformOutput, formatShellJsonOutput, type ExecOutcome } from "../../exec/format.js";
import type { TruncationPolicy } from "../../exec/truncate.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";
import { errorMessage } from "../../util/errors.js";

/** How the calling tool lays out a finished command for the model. */
export type PatchOutputFormat = (outcome: ExecOutcome, policy: TruncationPolicy) => string;

const IMPLICIT_INVOCATION =
  'patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]';

export const applyPatchHandler: ToolHandler = {
  // Offered as a freeform tool to the model families trained on that, as a function to others.
  payloadKind: "any",
  async handle(invocation) {
    if (invocation.payload.kind === "custom") {
      return applyPatch(invocation, invocation.payload.input, invocation.turn.cwd, formatFreeformOutput);
    }
    const args = parseArguments<{ input?: unknown }>(invocation);
    if (typeof args.input !== "string") {
      throw new ToolError("failed to parse function arguments: `input` must be the patch text");
    }
    return applyPatch(invocation, args.input, invocation.turn.cwd, formatShellJsonOutput);
  },
};

/**
 * Applies the patch when a shell tool's argv is an apply_patch invocation (directly, or a shell
 * script with a heredoc, optionally after `cd dir &&`); null when it is an ordinary command.
 */
export async function interceptApplyPatch(
  invocation: ToolInvocation,
  argv: readonly string[],
  workdir: string | null | undefined,
  format: PatchOutputFormat,
): Promise<ToolOutput | null> {
  const cwd = resolveWorkdir(invocation.turn, workdir);
  const script = shellScriptOf(argv);
  const looseBody = argv.length === 1 ? argv[0] : script;
  if (looseBody !== undefined && looseBody !== null && isPatchText(looseBody)) {
    return verificationFailed(IMPLICIT_INVOCATION);
  }
  const found = await extractApplyPatchInvocation(argv);
  if (found === null) return null;
  return applyPatch(invocation, found.body, found.workdir === null ? cwd : resolve(cwd, found.workdir), format);
}

async function applyPatch(invocation: ToolInvocation, text: string, cwd: string, format: PatchOutputFormat): Promise<ToolOutput> {
  if (invocation.turn.planning === true) return { text: "plan mode: no file is changed while planning; describe the edit in the plan instead", success: false };
  const started = performance.now();
  const { turn } = invocation;
  let parsed: ParsedPatch;
  let plan: PatchPlan;
  let written: string[];
  const editor = turn.services.editorFiles;
  let pinned: Map<string, string> | null = null;
  try {
    parsed = parsePatch(text);
    written = pathsWrittenBy(parsed, cwd);
    const denied = firstDenied(turn.services.fileSystemGuard, written);
    if (denied !== null) return { text: `apply_patch refused: ${denied}`, success: false };
    if (editor?.writeTextFile) pinned = pinLocations(written);
    plan = await planPatch(parsed, cwd, editor?.readTextFile ? await readThroughEditor(written, { readTextFile: editor.readTextFile.bind(editor) }) : undefined);
  } catch (err) {
    return verificationFailed(errorMessage(err));
  }

  const changes = fileChanges(plan);
  const store = turn.services.approvalStore;
  const safety = assessPatchSafety(written, turn.approvalPolicy, turn.sandboxPolicy, turn.cwd, store.grantedRoots);
  if (safety.kind === "reject") {
    invocation.emit({ type: "patch_apply_rejected", call_id: invocation.callId, reason: safety.reason, blocked_by: safety.blockedBy, path: safety.path });
    return { text: `patch rejected: ${safety.reason}`, success: false };
  }
  // auto_approved means no request was shown for this patch.
  const asked = safety.kind === "ask" && !store.covers("patch", written);
  if (safety.kind === "ask" && asked) {
    const answer = await askUser(turn.services.questions, { emit: invocation.emit, approvalPolicy: turn.approvalPolicy }, {
      type: "apply_patch_approval_request",
      call_id: invocation.callId,
      turn_id: turn.turnId,
      changes,
      ...(safety.grantRoot ? { reason: grantReason(safety.grantRoot), grant_root: safety.grantRoot } : {}),
    });
    turn.services.telemetry.toolDecision({ toolName: invocation.name, callId: invocation.callId, decision: answer, source: "user" });
    if (!isApproval(answer)) return { text: "patch rejected by user", success: false };
    if (answer === "approved_for_session") {
      // For the session: the folder asked about opens to later patches, and these paths are
      // not asked about again.
      if (safety.grantRoot) store.grantRoot(safety.grantRoot);
      store.remember("patch", written);
    }
  }

  if (!asked) turn.services.telemetry.toolDecision({ toolName: invocation.name, callId: invocation.callId, decision: "approved", source: "config" });
  invocation.emit({ type: "patch_apply_begin", call_id: invocation.callId, auto_approved: !asked, changes });
  let stdout = "";
  let stderr = "";
  try {
    await commit(plan, editor, pinned);
    stdout = summarizePlan(plan);
    invocation.turnDiff.track(plan.changes);
  } catch (err) {
    stderr = `${errorMessage(err)}\n`;
  }
  const success = stderr === "";
  invocation.emit({ type: "patch_apply_end", call_id: invocation.callId, stdout, stderr, success });
  const outcome: ExecOutcome = {
    exitCode: success ? 0 : 1,
    durationMs: performance.now() - started,
    aggregatedOutput: stdout + stderr,
    timedOut: false,
  };
  return { text: format(outcome, { kind: "tokens", limit: turn.model.truncationTokens }), success };
}

/** On disk, or through the editor when it writes files (with the locations pinned before the checks). */
function commit(plan: PatchPlan, editor: EditorFiles | undefined, pinned: Map<string, string> | null): Promise<void> {
  if (editor?.writeTextFile && pinned) return commitPlanThroughEditor(plan, { writeTextFile: editor.writeTextFile.bind(editor) }, pinned);
  return commitPlan(plan);
}

function firstDenied(guard: FileSystemGuard | undefined, paths: readonly string[]): string | null {
  if (guard === undefined) return null;
  for (const path of paths) {
    const reason = guard.deniedReason(path);
    if (reason !== null) return reason;
  }
  return null;
}

function verificationFailed(message: string): ToolOutput {
  return { text: `apply_patch verification failed: ${message}`, success: false };
}

/** The per-file view events carry: added content, deleted content, or an update's diff. */
export function fileChanges(plan: PatchPlan): Record<string, FileChange> {
  const changes: Record<string, FileChange> = {};
  for (const change of plan.changes) {
    switch (change.kind) {
      case "add":
        changes[change.path] = { type: "add", content: change.newContent ?? "" };
        break;
      case "delete":
        changes[change.path] = { type: "delete", content: change.oldContent ?? "" };
        break;
      case "update":
        changes[change.path] = {
          type: "update",
          unified_diff: unifiedDiff(change.oldContent ?? "", change.newContent ?? "", {
            context: 1,
            ...(change.regions ? { regions: change.regions } : {}),
          }),
          move_path: change.movePath,
        };
        break;
    }
  }
  return changes;
}
