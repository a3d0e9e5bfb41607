/**
 * Everything one turn needs to know, fixed when the turn starts: per-turn overrides (cwd,
 * model, policies, effort) are applied by building a new TurnContext, never by mutating one.
 */
import type { ExecPolicy } from "../approval/exec-policy/policy.js";
import type { TelemetryRecorder } from "../telemetry/recorder.js";
import { resolve } from "node:path";
import type { ModelInfo } from "../model/catalog.js";
import type { AskForApproval, ReasoningEffort, ReasoningSummary, SandboxPolicy } from "../protocol/policy.js";
import type { ShellEnvironmentPolicy } from "../exec/env.js";
import type { UnifiedExecManager } from "../exec/unified-exec.js";
import type { SessionShellSnapshot } from "../exec/shell-snapshot.js";
import type { Questions } from "../approval/questions.js";
import type { ApprovalStore } from "../approval/approval-store.js";
import type { GoalStatus, ThreadGoal } from "../protocol/goals.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";
import type { AgentControl } from "./agent-control.js";
import type { EditorFiles } from "../protocol/editor-files.js";
import type { SessionHooks } from "../hooks/session-hooks.js";
import type { SubagentContext } from "../hooks/payloads.js";

export interface TurnServices {
  /** Command rules that decide before the approval policy does. */
  execPolicy: ExecPolicy;
  /** The `codex.*` OpenTelemetry events of this turn (a recorder that records nothing without an exporter). */
  telemetry: TelemetryRecorder;
  unifiedExec: UnifiedExecManager;
  /** The user's shell, used for shell_command and exec_command scripts. */
  userShell: string;
  /** The session's snapshot of that shell (feature `shell_snapshot`); absent: login shells. */
  shellSnapshot?: SessionShellSnapshot;
  /** Everything asked of the user (approvals, request_user_input), on one path. */
  questions: Questions;
  /** Session-wide: what the user approved for the session, and folders granted to patches. */
  approvalStore: ApprovalStore;
  /**
   * Session-wide: the permission profile's denied and read-only paths, enforced on every command
   * (sandboxed or not) and on the agent's own reads and writes; absent: none.
   */
  fileSystemGuard?: FileSystemGuard;
  /** The thread's sub-agents, for the collab tools; absent where they are not offered (too deep, feature off). */
  agents?: AgentControl;
  /** The editor's view of the files (its buffers), when the front end is inside one that offers it; absent: the disk. */
  editorFiles?: EditorFiles;
  /** The session's lifecycle hooks (PreToolUse, PostToolUse, PermissionRequest run from the tools); absent: none. */
  hooks?: SessionHooks;
  /** The thread's goal, for the goal tools; absent where goals are off (a review). */
  goals?: GoalAccess;
  /** Undo's record of this turn (docs/undo.md); absent when undo is off or the turn changes nothing. */
  fileHistory?: TurnFileHistory;
}

/** What tools see of undo: the turn's first snapshot, and a copy of each file before a patch writes it. */
export interface TurnFileHistory {
  /** Tools are about to run: resolves once the turn's first snapshot is taken (never rejects). */
  toolsStarting(): Promise<void>;
  /** A batch of tool calls ended (the second snapshot may start while the model answers). */
  toolsFinished(): void;
  /** Saves each of `paths` (real: links resolved) as it is now, before a patch writes it. */
  beforeWrite(paths: readonly string[]): Promise<void>;
}

/** What the goal tools report: the goal (null when none) and what its budget leaves. */
export interface GoalToolView {
  goal: ThreadGoal | null;
  remainingTokens: number | null;
  /** Set once a budgeted goal is complete: the tokens it took, for the model to report. */
  completionBudgetReport: string | null;
}

/** The thread's goal as the goal tools see it (core/goals.ts keeps it). */
export interface GoalAccess {
  view(): GoalToolView;
  /** The new goal, or why it cannot be created. */
  create(objective: string, tokenBudget: number | null): ThreadGoal | string;
  setStatus(status: GoalStatus, by: "model" | "user"): ThreadGoal | string;
}

export interface TurnContext {
  /** The submission id that started the turn; events of the turn carry it as their `id`. */
  subId: string;
  /** Names the user turn (unique across processes): in approval requests and the rollout. */
  turnId: string;
  cwd: string;
  model: ModelInfo;
  approvalPolicy: AskForApproval;
  sandboxPolicy: SandboxPolicy;
  reasoningEffort: ReasoningEffort | null;
  reasoningSummary: ReasoningSummary | null;
  verbosity: "low" | "medium" | "high" | null;
  outputSchema: unknown;
  /** `show_raw_agent_reasoning`: emit the model's raw reasoning text too. */
  showRawAgentReasoning?: boolean;
  shellEnvironmentPolicy: ShellEnvironmentPolicy;
  /** Plan mode: nothing may change (commands read-only, never escalated; no patches). */
  planning?: boolean;
  services: TurnServices;
  /** Set when the turn is a sub-agent's: hooks add who it is to what they read, and run SubagentStop for Stop. */
  subagent?: SubagentContext;
}

/** Resolves a tool's `workdir` against the turn's cwd (an absolute path replaces it). */
export function resolveWorkdir(turn: TurnContext, workdir: string | undefined | null): string {
  return workdir ? resolve(turn.cwd, workdir) : turn.cwd;
}
