/**
 * What a sub-agent's thread starts with, derived from its parent as the parent is right now:
 * the parent's working folder, sandbox and approval policy (a role may narrow the sandbox, never
 * widen it), its model and effort unless the spawn or the role chose others, its services (the
 * shell snapshot and MCP servers are shared, not started again), and the role's developer
 * instructions in place of the parent's, as a config layer would put them. Its lifecycle hooks
 * are the parent's, run as a sub-agent's (SubagentStart and SubagentStop).
 */
import type { AgentRole } from "../../config/agent-roles.js";
import type { ThreadLineage } from "../../protocol/collab.js";
import type { ResponseItem, ToolCallItem } from "../../protocol/items.js";
import { SANDBOX_MODES, sandboxPolicyFor, type ReasoningEffort, type SandboxPolicy } from "../../protocol/policy.js";
import type { QuestionUpstream } from "../../approval/questions.js";
import type { SessionOptions, ResumeOptions } from "../session-options.js";
import type { AgentParent } from "./agent-parent.js";
import type { AgentTree } from "./agent-tree.js";

export interface ChildPlan {
  threadId: string;
  lineage: ThreadLineage;
  model: string;
  reasoningEffort: ReasoningEffort | null;
  role: AgentRole | null;
  /** The parent's history to start from (fork_context); null: a fresh initial context. */
  forkHistory: readonly ResponseItem[] | null;
  /** A closed child reopened from its rollout. */
  resume?: ResumeOptions;
}

export function childSessionOptions(parent: AgentParent, plan: ChildPlan, tree: AgentTree, questionUpstream: QuestionUpstream): SessionOptions {
  const p = parent.settings;
  const role = plan.role?.settings;
  // Told where the user looks: the parent's front end.
  const sandboxPolicy = narrowedSandbox(p.sandboxPolicy, role?.sandboxMode ?? null, (wider) =>
    parent.send(parent.activeSubId, {
      type: "warning",
      message: `Role '${plan.role?.name}' asks for sandbox_mode "${wider}", wider than its parent's; the sub-agent runs in the parent's sandbox.`,
    }),
  );
  const { options } = parent;
  return {
    ...options,
    settings: {
      ...p,
      model: plan.model,
      reasoningEffort: plan.reasoningEffort,
      reasoningSummary: role?.reasoningSummary ?? p.reasoningSummary,
      sandboxPolicy,
    },
    threadId: plan.threadId,
    developerInstructions: role?.developerInstructions ?? options.developerInstructions,
    startupWarnings: [],
    // A sub-agent's turns are not the user's: no notifier, no prompt history.
    notify: null,
    promptHistory: undefined,
    recorder: null,
    telemetry: undefined,
    // Undo snapshots are the parent's turns': a sub-agent's changes belong to the parent turn they happened in.
    undo: undefined,
    resume: plan.resume,
    initialHistory: plan.forkHistory ?? undefined,
    agentTree: tree,
    lineage: plan.lineage,
    questionUpstream,
    sharedShellSnapshot: parent.shellSnapshot,
    sharedMcp: parent.mcp,
    // Its hooks run SubagentStart / SubagentStop and read the tree's session id (docs/hooks.md).
    subagent: { agentId: plan.threadId, agentType: plan.role?.name ?? "default", parentTranscriptPath: options.recorder?.path ?? null },
    hookSessionId: plan.lineage.rootThreadId,
  };
}

/** The parent's sandbox, or the role's mode when that is narrower (read-only < workspace-write < full access). */
export function narrowedSandbox(parent: SandboxPolicy, requested: SandboxPolicy["type"] | null, onWider: (mode: string) => void = () => undefined): SandboxPolicy {
  if (requested === null || requested === parent.type) return parent;
  if (SANDBOX_MODES.indexOf(requested) > SANDBOX_MODES.indexOf(parent.type)) {
    onWider(requested);
    return parent;
  }
  return sandboxPolicyFor(requested);
}

/**
 * The parent's history as a forked child starts from it: everything so far except the tool
 * calls still running (the spawn_agent call among them), which have no output to pair with.
 */
export function forkedHistory(history: readonly ResponseItem[]): ResponseItem[] {
  const answered = new Set<string>();
  for (const item of history) if (item.type === "function_call_output" || item.type === "custom_tool_call_output") answered.add(item.call_id);
  const isOpenCall = (item: ResponseItem): item is ToolCallItem =>
    (item.type === "function_call" || item.type === "custom_tool_call") && !answered.has(item.call_id);
  return history.filter((item) => !isOpenCall(item));
}
