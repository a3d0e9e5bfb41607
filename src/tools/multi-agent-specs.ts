/**
 * The collab tools as the model is offered them: one `namespace` tool, `multi_agent_v1`, holding
 * close_agent, resume_agent, send_input, spawn_agent and wait_agent, with the reference's names,
 * parameters, types, `required` lists, key order and tool order. The descriptions are our own
 * words. `agent_type` is offered only when the user defined roles of their own, as the reference
 * does; its description lists every role (the user's first, then the built-in ones).
 */
import type { JsonSchema, ToolNamespace, ToolSpec } from "../protocol/tool-spec.js";

export const MULTI_AGENT_NAMESPACE = "multi_agent_v1";

/** The tools inside the namespace, by name. */
export const COLLAB_TOOLS = ["close_agent", "resume_agent", "send_input", "spawn_agent", "wait_agent"] as const;
export type CollabTool = (typeof COLLAB_TOOLS)[number];

/** A role as the spawn_agent description lists it. */
export interface RoleListing {
  name: string;
  description: string;
  /** Settings the role fixes, which the model cannot override (`model`, `reasoning effort`). */
  locked: Array<{ setting: "model" | "reasoning effort"; value: string }>;
  /** Defined by the user (or a project), as opposed to built in. */
  user: boolean;
}

/** A model spawn_agent may ask for, as its description lists it. */
export interface ModelListing {
  slug: string;
  defaultReasoningEffort: string | null;
}

export interface MultiAgentOffer {
  roles: readonly RoleListing[];
  models: readonly ModelListing[];
}

/** Bounds of wait_agent's timeout, in milliseconds (the reference's). */
export const WAIT_TIMEOUT_DEFAULT_MS = 30_000;
export const WAIT_TIMEOUT_MIN_MS = 10_000;
export const WAIT_TIMEOUT_MAX_MS = 3_600_000;

const string = (description: string): JsonSchema => ({ type: "string", description });
const boolean = (description: string): JsonSchema => ({ type: "boolean", description });

/** One structured input item (no `required` list, as the reference sends it). */
const INPUT_ITEM: JsonSchema = {
  type: "object",
  properties: {
    audio_url: string("For `audio`: the audio as a data URL."),
    image_url: string("For `image`: the image URL."),
    name: string("For `skill` and `mention`: the name shown."),
    path: string("For `local_image`, `local_audio` and `skill`: the file; for `mention`: the target, e.g. app://<connector-id>."),
    text: string("For `text`: the text."),
    type: string("The item's kind: text, image, local_image, audio, local_audio, skill or mention."),
  },
  additionalProperties: false,
};

const ITEMS: JsonSchema = {
  type: "array",
  description: "The input as structured items (text, images, mentions), instead of `message`.",
  items: INPUT_ITEM,
};

function fn(name: string, description: string, parameters: JsonSchema): ToolSpec {
  return { type: "function", name, description, strict: false, parameters };
}

function closeAgent(): ToolSpec {
  return fn(
    "close_agent",
    "Close an agent (and any agents it started) once you no longer need it; returns the status it had before closing. An agent that finished still counts toward the limit on open agents until it is closed, so close agents promptly.",
    { type: "object", properties: { target: string("Id of the agent to close (from spawn_agent).") }, required: ["target"], additionalProperties: false },
  );
}

function resumeAgent(): ToolSpec {
  return fn(
    "resume_agent",
    "Reopen an agent you closed earlier, by id, so that send_input and wait_agent reach it again.",
    { type: "object", properties: { id: string("Id of the agent to reopen.") }, required: ["id"], additionalProperties: false },
  );
}

function sendInput(): ToolSpec {
  return fn(
    "send_input",
    "Give an existing agent more to do. The message waits until its current work is done unless `interrupt` is true, which stops that work and hands it this message at once. Prefer reusing an agent that already has the context a follow-up task needs.",
    {
      type: "object",
      properties: {
        interrupt: boolean("true: stop the agent's current work and handle this message now; false or absent: queue it."),
        items: ITEMS,
        message: string("The message, as plain text. Give either this or `items`."),
        target: string("Id of the agent (from spawn_agent)."),
      },
      required: ["target"],
      additionalProperties: false,
    },
  );
}

function spawnAgent(offer: MultiAgentOffer): ToolSpec {
  const properties: Record<string, JsonSchema> = {};
  if (offer.roles.some((role) => role.user)) properties.agent_type = string(roleDescription(offer.roles));
  properties.fork_context = boolean("true: the new agent starts with a copy of this conversation; false or absent: it starts with only your message.");
  properties.items = ITEMS;
  properties.message = string("The new agent's task, as plain text. Give either this or `items`.");
  properties.model = string("Model for the new agent. Leave it out unless a different model is really needed.");
  properties.reasoning_effort = string("Reasoning effort for the new agent. Leave it out to use yours.");
  return fn("spawn_agent", spawnDescription(offer.models), { type: "object", properties, additionalProperties: false });
}

function waitAgent(): ToolSpec {
  return fn(
    "wait_agent",
    "Wait until one of the given agents finishes (completed, errored, closed or unknown). A completed status carries the agent's final message. When the time runs out first, the status is empty and `timed_out` is true. Each finished agent is also reported to you in a notification message.",
    {
      type: "object",
      properties: {
        targets: { type: "array", description: "Ids of the agents to wait for; the wait ends when the first of them finishes.", items: { type: "string" } },
        timeout_ms: {
          type: "number",
          description: `How long to wait, in milliseconds: ${WAIT_TIMEOUT_DEFAULT_MS} by default, at least ${WAIT_TIMEOUT_MIN_MS}, at most ${WAIT_TIMEOUT_MAX_MS}. Long waits (minutes) are better than polling.`,
        },
      },
      required: ["targets"],
      additionalProperties: false,
    },
  );
}

function spawnDescription(models: readonly ModelListing[]): string {
  const lines: string[] = [];
  if (models.length > 0) {
    lines.push("Models you may ask for (by default the new agent uses yours, which is usually best):");
    for (const m of models) lines.push(`- \`${m.slug}\`${m.defaultReasoningEffort ? ` (default reasoning effort: ${m.defaultReasoningEffort})` : ""}`);
  }
  lines.push(
    "Start a sub-agent on a well-defined task; returns its id and a nickname for the user. It runs alongside you with your model, sandbox and approval settings, and its own conversation.",
    "",
    "Only start sub-agents when the user, AGENTS.md or a skill asks for delegation or parallel agents; a request for a thorough answer is not such a request.",
    "",
    "Delegate side tasks that can run while you keep working, not the step you need next. Give each agent a concrete, self-contained task with a clear result, and give agents that edit files separate files to edit. Ask coding agents to edit the files directly and to list what they changed.",
    "",
    "After delegating, do useful work of your own instead of waiting. Call wait_agent only when you are blocked on the result; do not redo a delegated task. Independent questions or separate slices of a change can go to several agents at once.",
  );
  return lines.join("\n");
}

/** The agent_type description: every role as `name: {\n…\n}`, the user's roles first. */
function roleDescription(roles: readonly RoleListing[]): string {
  const ordered = [...roles.filter((r) => r.user), ...roles.filter((r) => !r.user)];
  const blocks = ordered.map((role) => {
    const lines = [role.description.trim() || "(no description)"];
    for (const lock of role.locked) lines.push(`- This role's ${lock.setting} is \`${lock.value}\`; it cannot be changed.`);
    return `${role.name}: {\n${lines.join("\n")}\n}`;
  });
  return `The role of the new agent. Leave it out for \`default\` (or, with fork_context, the role you have yourself).\nRoles:\n${blocks.join("\n")}`;
}

/** The namespace tool, its functions in the reference's (alphabetical) order. */
export function multiAgentNamespace(offer: MultiAgentOffer): ToolNamespace {
  return {
    type: "namespace",
    name: MULTI_AGENT_NAMESPACE,
    description: "Start helper agents, give them work, wait for their results and close them.",
    tools: [closeAgent(), resumeAgent(), sendInput(), spawnAgent(offer), waitAgent()],
  };
}
