/**
 * The collab tools of the `multi_agent_v1` namespace: spawn_agent, send_input, resume_agent,
 * wait_agent and close_agent. Each checks its arguments (with the reference's wording for what it
 * refuses), emits the reference's begin / end events around the work, and answers with the
 * reference's JSON. The work itself is the thread's AgentControl (core/agents/).
 */
import type { AgentStatus } from "../../protocol/collab.js";
import { isFinalStatus } from "../../protocol/collab.js";
import type { UserInput } from "../../protocol/ops.js";
import { isUuid } from "../../util/ids.js";
import { AgentNotFoundError, type AgentControl, type SpawnRequest } from "../agent-control.js";
import { WAIT_TIMEOUT_DEFAULT_MS, WAIT_TIMEOUT_MAX_MS, WAIT_TIMEOUT_MIN_MS, type CollabTool } from "../multi-agent-specs.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";

/** One structured input item as the model sends it. */
interface InputItemArgs {
  type?: string | null;
  text?: string | null;
  image_url?: string | null;
  path?: string | null;
  name?: string | null;
}

interface InputArgs {
  message?: string | null;
  items?: InputItemArgs[] | null;
}

interface SpawnArgs extends InputArgs {
  fork_context?: boolean | null;
  model?: string | null;
  reasoning_effort?: string | null;
  agent_type?: string | null;
}

interface SendArgs extends InputArgs {
  target: string;
  interrupt?: boolean | null;
}

export const spawnAgentHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<SpawnArgs>(invocation);
    const { input, prompt } = agentInput(args);
    const control = agentsOf(invocation);
    const request: SpawnRequest = {
      input,
      forkContext: args.fork_context === true,
      model: args.model ?? null,
      reasoningEffort: args.reasoning_effort ?? null,
      role: args.agent_type ?? null,
    };
    const planned = control.spawnSettings(request);
    const base = { call_id: invocation.callId, sender_thread_id: control.threadId, prompt };
    invocation.emit({ type: "collab_agent_spawn_begin", ...base, model: planned.model, reasoning_effort: planned.reasoningEffort });
    try {
      const spawned = await control.spawn(request);
      invocation.emit({
        type: "collab_agent_spawn_end",
        ...base,
        new_thread_id: spawned.thread_id,
        new_agent_nickname: spawned.agent_nickname,
        new_agent_role: spawned.agent_role,
        model: spawned.model,
        reasoning_effort: spawned.reasoningEffort,
        status: "pending_init",
      });
      return json({ agent_id: spawned.thread_id, nickname: spawned.agent_nickname });
    } catch (err) {
      invocation.emit({
        type: "collab_agent_spawn_end",
        ...base,
        new_thread_id: null,
        new_agent_nickname: null,
        new_agent_role: null,
        model: planned.model,
        reasoning_effort: planned.reasoningEffort,
        status: "not_found",
      });
      throw new ToolError((err as Error).message);
    }
  },
};

export const sendInputHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<SendArgs>(invocation);
    const target = agentId(args.target);
    const { input, prompt } = agentInput(args);
    const control = agentsOf(invocation);
    const base = { call_id: invocation.callId, sender_thread_id: control.threadId, receiver_thread_id: target, prompt };
    invocation.emit({ type: "collab_agent_interaction_begin", ...base });
    const end = (status: AgentStatus): void => {
      const ref = control.ref(target);
      invocation.emit({ type: "collab_agent_interaction_end", ...base, receiver_agent_nickname: ref.agent_nickname, receiver_agent_role: ref.agent_role, status });
    };
    const sent = await settle(control.send(target, input, args.interrupt === true), end);
    end(sent.status);
    return json({ submission_id: sent.submissionId });
  },
};

export const resumeAgentHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const target = agentId(parseArguments<{ id: string }>(invocation).id);
    const control = agentsOf(invocation);
    const named = (): { receiver_agent_nickname: string | null; receiver_agent_role: string | null } => {
      const ref = control.ref(target);
      return { receiver_agent_nickname: ref.agent_nickname, receiver_agent_role: ref.agent_role };
    };
    const base = { call_id: invocation.callId, sender_thread_id: control.threadId, receiver_thread_id: target };
    invocation.emit({ type: "collab_resume_begin", ...base, ...named() });
    const end = (status: AgentStatus): void => invocation.emit({ type: "collab_resume_end", ...base, ...named(), status });
    const status = await settle(control.resume(target), end);
    end(status);
    return json({ status });
  },
};

export const waitAgentHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const args = parseArguments<{ targets: string[]; timeout_ms?: number | null }>(invocation);
    if (args.targets.length === 0) throw new ToolError("agent ids must be non-empty");
    const targets = args.targets.map(agentId);
    const timeoutMs = waitTimeout(args.timeout_ms);
    const control = agentsOf(invocation);
    const base = { call_id: invocation.callId, sender_thread_id: control.threadId };
    invocation.emit({ type: "collab_waiting_begin", ...base, receiver_thread_ids: targets, receiver_agents: targets.map((id) => control.ref(id)) });
    const statuses = (await control.wait(targets, timeoutMs, invocation.signal)) ?? new Map<string, AgentStatus>();
    const finished = [...new Set(targets)].filter((id) => {
      const status = statuses.get(id);
      return status !== undefined && isFinalStatus(status);
    });
    const byId: Record<string, AgentStatus> = {};
    for (const id of finished) byId[id] = statuses.get(id) as AgentStatus;
    invocation.emit({
      type: "collab_waiting_end",
      ...base,
      agent_statuses: finished.map((id) => ({ ...control.ref(id), status: byId[id] as AgentStatus })),
      statuses: byId,
    });
    return json({ status: byId, timed_out: finished.length === 0 });
  },
};

export const closeAgentHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation) {
    const target = agentId(parseArguments<{ target: string }>(invocation).target);
    const control = agentsOf(invocation);
    const ref = control.ref(target);
    const base = { call_id: invocation.callId, sender_thread_id: control.threadId, receiver_thread_id: target };
    invocation.emit({ type: "collab_close_begin", ...base });
    const end = (status: AgentStatus): void =>
      invocation.emit({ type: "collab_close_end", ...base, receiver_agent_nickname: ref.agent_nickname, receiver_agent_role: ref.agent_role, status });
    const previous = await settle(control.close(target), end);
    end(previous);
    return json({ previous_status: previous });
  },
};

/** The collab handlers by tool name (the names inside the namespace). */
export const MULTI_AGENT_HANDLERS: Readonly<Record<CollabTool, ToolHandler>> = {
  close_agent: closeAgentHandler,
  resume_agent: resumeAgentHandler,
  send_input: sendInputHandler,
  spawn_agent: spawnAgentHandler,
  wait_agent: waitAgentHandler,
};

/**
 * The call's work; an unknown agent ends the call's events with `not_found` and tells the
 * model so. Other failures go to the model as they are.
 */
async function settle<T>(work: Promise<T>, end: (status: AgentStatus) => void): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof AgentNotFoundError) end("not_found");
    throw new ToolError((err as Error).message);
  }
}

function agentsOf(invocation: ToolInvocation): AgentControl {
  const agents = invocation.turn.services.agents;
  if (!agents) throw new ToolError("sub-agents are not available in this session");
  return agents;
}

function agentId(raw: string): string {
  if (!isUuid(raw)) throw new ToolError(`invalid agent id ${raw}: not a UUID`);
  return raw.toLowerCase();
}

/** wait_agent's timeout: the default when absent, otherwise kept within the reference's bounds. */
function waitTimeout(requested: number | null | undefined): number {
  if (requested === null || requested === undefined) return WAIT_TIMEOUT_DEFAULT_MS;
  if (requested <= 0) throw new ToolError("timeout_ms must be greater than zero");
  return Math.min(Math.max(requested, WAIT_TIMEOUT_MIN_MS), WAIT_TIMEOUT_MAX_MS);
}

/**
 * The input a spawn or send_input carries: exactly one of `message` (plain text) and `items`
 * (structured), as user input, and the text the events show for it.
 */
export function agentInput(args: InputArgs): { input: UserInput[]; prompt: string } {
  const { message, items } = args;
  if ((message === null || message === undefined) && (items === null || items === undefined)) throw new ToolError("Provide one of: message or items");
  if (message !== null && message !== undefined && items !== null && items !== undefined) {
    throw new ToolError("Provide either message or items, but not both");
  }
  if (message !== null && message !== undefined) {
    if (message.trim() === "") throw new ToolError("Empty message can't be sent to an agent");
    return { input: [{ type: "text", text: message }], prompt: message };
  }
  const list = items ?? [];
  if (list.length === 0) throw new ToolError("Items can't be empty");
  const input = list.map(inputItem);
  const prompt = input.flatMap((i) => (i.type === "text" ? [i.text] : [])).join("\n");
  return { input, prompt };
}

function inputItem(item: InputItemArgs, index: number): UserInput {
  const field = (name: "text" | "image_url" | "path" | "name"): string => {
    const value = item[name];
    if (typeof value !== "string" || value === "") throw new ToolError(`items[${index}]: a ${item.type} item needs \`${name}\``);
    return value;
  };
  switch (item.type) {
    case "text":
      return { type: "text", text: field("text") };
    case "image":
      return { type: "image", image_url: field("image_url") };
    case "local_image":
      return { type: "local_image", path: field("path") };
    case "skill":
      // A skill is mentioned the way a user mentions one, which makes the child read its file.
      return { type: "text", text: `$${field("name")}` };
    case "mention":
      return { type: "text", text: `[${item.name ?? field("path")}](${field("path")})` };
    default:
      throw new ToolError(`items[${index}]: input items of type \`${String(item.type)}\` are not supported (use text, image, local_image, skill or mention)`);
  }
}

function json(value: unknown): ToolOutput {
  return { text: JSON.stringify(value), success: true };
}
