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
 * the editor's buffers and rewrites existing files through it, each write checked against the
 * same scope as a disk write (patch/editor-files.ts).
 */
import { isApproval } from "../../approval/ask-user.js";
import { askApproval } from "../tool-hooks.js";
import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import type { FileChange } from "../../protocol/events.js";
import { isPatchText, parsePatch } from "../../patch/parser.js";
import { pathsWrittenBy, planPatch } from "../../patch/plan.js";
import { commitPlan, planTargets, summarizePlan } from "../../patch/commit.js";
import { commitPlanThroughEditor, readThroughEditor } from "../../patch/editor-files.js";
import type { EditorFiles } from "../../protocol/editor-files.js";
import type { WriteScope } from "../../util/write-scope.js";
import { extractApplyPatchInvocation, shellScriptOf } from "../../patch/invocation.js";
import { unifiedDiff } from "../../patch/unified-diff.js";
import type { ParsedPatch, PatchPlan } from "../../patch/types.js";
import type { FileSystemGuard } from "../../sandbox/fs-guard.js";
import { assessPatchSafety, grantReason } from "../../approval/patch-safety.js";
import { patchWriteScope } from "../../sandbox/patch-scope.js";
import { destinationsOf } from "../../util/write-scope.js";
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
  // As the reference names it: the patch as `command`, and `Edit` / `Write` for matchers.
  hookIdentity: (invocation) => ({ toolName: "apply_patch", toolInput: { command: patchText(invocation) }, matcherAliases: ["Edit", "Write"] }),
  withHookInput(invocation, input) {
    const patch = typeof input === "object" && input !== null ? (input as { command?: unknown }).command : undefined;
    if (typeof patch !== "string") return 'apply_patch\'s updatedInput must be {"command": "<patch>"}';
    if (invocation.payload.kind === "custom") return { ...invocation, payload: { kind: "custom", input: patch } };
    return { ...invocation, payload: { kind: "function", arguments: JSON.stringify({ input: patch }) } };
  },
};

/** The patch a call carries (freeform input, or the function's `input`). */
function patchText(invocation: ToolInvocation): string {
  if (invocation.payload.kind === "custom") return invocation.payload.input;
  try {
    const args = JSON.parse(invocation.payload.arguments) as { input?: unknown };
    return typeof args.input === "string" ? args.input : "";
  } catch {
    return "";
  }
}

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
  try {
    parsed = parsePatch(text);
    const written = pathsWrittenBy(parsed, cwd);
    // Denied paths are judged as named and where links lead, before anything is read.
    const guard = turn.services.fileSystemGuard;
    const leadsTo = guard === undefined ? [] : destinationsOf(written.map((path) => ({ path, followsLinks: true }))).map((d) => d.canonical);
    const denied = firstDenied(guard, written) ?? firstDenied(guard, leadsTo);
    if (denied !== null) return { text: `apply_patch refused: ${denied}`, success: false };
    const editor = turn.services.editorFiles;
    plan = await planPatch(parsed, cwd, editor?.readTextFile ? await readThroughEditor(written, { readTextFile: editor.readTextFile.bind(editor) }) : undefined);
  } catch (err) {
    return verificationFailed(errorMessage(err));
  }

  const changes = fileChanges(plan);
  const store = turn.services.approvalStore;
  const scope = patchWriteScope(turn.sandboxPolicy, turn.cwd, store.grantedRoots);
  const destinations = destinationsOf(planTargets(plan));
  // Approvals are kept by where the paths lead, so a link changed since does not inherit one.
  const canonicals = destinations.map((d) => d.canonical);
  const safety = assessPatchSafety(destinations, turn.approvalPolicy, turn.sandboxPolicy, scope);
  if (safety.kind === "reject") {
    invocation.emit({ type: "patch_apply_rejected", call_id: invocation.callId, reason: safety.reason, blocked_by: safety.blockedBy, path: safety.path });
    return { text: `patch rejected: ${safety.reason}`, success: false };
  }
  // auto_approved means no request was shown for this patch.
  const asked = safety.kind === "ask" && !store.covers("patch", canonicals);
  if (safety.kind === "ask" && asked) {
    const request = {
      type: "apply_patch_approval_request",
      call_id: invocation.callId,
      turn_id: turn.turnId,
      changes,
      ...approvalReason(safety.grantRoot, safety.reason),
    } as const;
    const identity = { toolName: "apply_patch", toolInput: { command: text }, matcherAliases: ["Edit", "Write"] };
    const { decision: answer, message, decidedBy } = await askApproval(invocation, request, identity);
    turn.services.telemetry.toolDecision({ toolName: invocation.name, callId: invocation.callId, decision: answer, source: decidedBy === "hook" ? "config" : "user" });
    if (!isApproval(answer)) return { text: message ?? "patch rejected by user", success: false };
    if (answer === "approved_for_session") {
      // For the session: the folder asked about opens to later patches, and these paths are
      // not asked about again.
      if (safety.grantRoot) store.grantRoot(safety.grantRoot);
      store.remember("patch", canonicals);
    }
  }

  // What the user saw and approved may be written where it led then, even outside the scope;
  // the commit checks every write again, so a link changed since cannot carry it elsewhere.
  const approvedScope = scope && (safety.kind === "ask" ? { ...scope, approved: canonicals } : scope);
  if (!asked) turn.services.telemetry.toolDecision({ toolName: invocation.name, callId: invocation.callId, decision: "approved", source: "config" });
  invocation.emit({ type: "patch_apply_begin", call_id: invocation.callId, auto_approved: !asked, changes });
  let stdout = "";
  let stderr = "";
  try {
    // Undo keeps each file as it was before the patch writes it.
    await turn.services.fileHistory?.beforeWrite(canonicals);
    await commit(plan, approvedScope, turn.services.editorFiles);
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
  // It ran, whether every file was written or the commit was rolled back: PostToolUse hears of it.
  return { text: format(outcome, { kind: "tokens", limit: turn.model.truncationTokens }), success, ran: true };
}

function approvalReason(grantRoot: string | null, note: string | null): { reason?: string; grant_root?: string } {
  const reason = [grantRoot ? grantReason(grantRoot) : null, note].filter((part) => part !== null).join("; ");
  return { ...(reason ? { reason } : {}), ...(grantRoot ? { grant_root: grantRoot } : {}) };
}

/** On disk, or through the editor when it writes files. */
function commit(plan: PatchPlan, scope: WriteScope | null, editor: EditorFiles | undefined): Promise<void> {
  if (editor?.writeTextFile) return commitPlanThroughEditor(plan, { writeTextFile: editor.writeTextFile.bind(editor) }, scope);
  return commitPlan(plan, scope);
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
