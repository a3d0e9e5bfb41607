/**
 * A `session/prompt` as the core takes it: the editor's content blocks as user input, or one of
 * the slash commands the session offers (`available_commands_update`): `/init`, `/compact`,
 * `/review`, `/undo`, `/redo` and the user's custom prompts as `/prompts:NAME`. Text is taken as it is; an image is
 * attached as a data URL; a file the editor embeds (the "embedded context" capability) is given to
 * the model as its text inside a `<context>` element naming it; a linked resource is named so the
 * model can read it itself.
 */
import type { AvailableCommand, ContentBlock } from "@agentclientprotocol/sdk";
import { fileURLToPath } from "node:url";
import { expandPrompt } from "../config/custom-prompts.js";
import type { EventMsg } from "../protocol/events.js";
import type { Op, UserInput } from "../protocol/ops.js";
import { INIT_PROMPT } from "../presentation/init-prompt.js";

export type CustomPrompt = Extract<EventMsg, { type: "list_custom_prompts_response" }>["custom_prompts"][number];

const PROMPTS_PREFIX = "prompts:";

export const BUILTIN_COMMANDS: readonly AvailableCommand[] = [
  { name: "init", description: "ask the agent to write an AGENTS.md for this repository" },
  { name: "compact", description: "summarise the conversation to free context", input: { hint: "what the summary must keep" } },
  { name: "review", description: "review the uncommitted changes (or what the instructions say) and report problems", input: { hint: "what to review (default: uncommitted changes)" } },
  { name: "undo", description: "put back the files the last turn that changed files changed" },
  { name: "redo", description: "change the files again as the turn the last /undo took back had" },
];

export function availableCommands(prompts: readonly CustomPrompt[]): AvailableCommand[] {
  return [
    ...BUILTIN_COMMANDS,
    ...prompts.map((p) => ({
      name: `${PROMPTS_PREFIX}${p.name}`,
      description: p.description ?? `custom prompt ${p.name}`,
      ...(p.argument_hint ? { input: { hint: p.argument_hint } } : {}),
    })),
  ];
}

/** The op a prompt submits: a user turn with its content, or what a slash command asks for. */
export function promptOp(blocks: readonly ContentBlock[], prompts: readonly CustomPrompt[]): Op {
  const first = blocks[0];
  const slash = first?.type === "text" ? /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(first.text.trim()) : null;
  if (slash) {
    const [, name = "", rest = ""] = slash;
    const args = rest.trim();
    const others = blocks.slice(1);
    if (name === "init") return { type: "user_input", items: [{ type: "text", text: INIT_PROMPT }, ...userInput(others)] };
    if (name === "compact") return { type: "compact", ...(args ? { instructions: args } : {}) };
    if (name === "review") return { type: "review", review_request: { target: args ? { type: "custom", instructions: args } : { type: "uncommittedChanges" } } };
    if (name === "undo" || name === "redo") return { type: name };
    const prompt = name.startsWith(PROMPTS_PREFIX) ? prompts.find((p) => p.name === name.slice(PROMPTS_PREFIX.length)) : undefined;
    if (prompt) return { type: "user_input", items: [{ type: "text", text: expandPrompt(prompt.content, args) }, ...userInput(others)] };
  }
  return { type: "user_input", items: userInput(blocks) };
}

export function userInput(blocks: readonly ContentBlock[]): UserInput[] {
  return blocks.map((block): UserInput => {
    switch (block.type) {
      case "text":
        return { type: "text", text: block.text };
      case "image":
        return { type: "image", image_url: `data:${block.mimeType};base64,${block.data}` };
      case "audio":
        return { type: "text", text: "[an audio clip was attached; codex-ts cannot listen to audio]" };
      case "resource_link":
        return { type: "text", text: `[${block.title ?? block.name}](${displayUri(block.uri)})` };
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) return { type: "text", text: `<context ref="${displayUri(resource.uri)}">\n${resource.text}\n</context>` };
        if (resource.mimeType?.startsWith("image/")) return { type: "image", image_url: `data:${resource.mimeType};base64,${resource.blob}` };
        return { type: "text", text: `[${displayUri(resource.uri)}: ${resource.mimeType ?? "binary"} content, not shown]` };
      }
    }
  });
}

/** A `file://` URI as its path; other URIs as they are. */
function displayUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
