/**
 * Tools as the Chat Completions API takes them: function tools pass through, and freeform
 * (custom) tools become functions taking their raw text as `input`, since that API has no
 * grammar-constrained tools. A namespace tool's functions are offered one by one under their own
 * names (the chat client gives their calls the namespace back).
 */
import { PATCH_FORMAT_SUMMARY, type ChatTool, type ToolSpec } from "../protocol/tool-spec.js";

const RAW_INPUT_PARAMETERS = {
  type: "object",
  properties: { input: { type: "string", description: "The raw tool input." } },
  required: ["input"],
  additionalProperties: false,
};

export function toChatTools(specs: ToolSpec[]): ChatTool[] {
  const out: ChatTool[] = [];
  for (const spec of specs) {
    if (spec.type === "function") {
      out.push({ type: "function", function: { name: spec.name, description: spec.description, parameters: spec.parameters } });
    } else if (spec.type === "namespace") {
      out.push(...toChatTools(spec.tools));
    } else if (spec.type === "custom") {
      const description = spec.name === "apply_patch" ? PATCH_FORMAT_SUMMARY : `${spec.description}\nPass the raw text as \`input\`.`;
      out.push({ type: "function", function: { name: spec.name, description, parameters: RAW_INPUT_PARAMETERS } });
    }
  }
  return out;
}
