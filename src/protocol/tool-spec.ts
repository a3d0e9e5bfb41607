/**
 * Tool definitions as they travel on the wire (the Responses API's tool objects), shared by the
 * tools that build them, the model clients that send them and the MCP client that adds its own.
 */

export type JsonSchema = {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  additionalProperties?: boolean;
  enum?: string[];
};

export type ToolSpec =
  /** `defer_loading`: a tool found by tool_search, offered in its output rather than up front. */
  | { type: "function"; name: string; description: string; strict: boolean; defer_loading?: boolean; parameters: JsonSchema }
  /** The hosted tool search run by the client: the model asks, we search the deferred tools and answer. */
  | { type: "tool_search"; execution: "client"; description: string; parameters: JsonSchema }
  | {
      type: "custom";
      name: string;
      description: string;
      format: { type: "grammar"; syntax: "lark"; definition: string };
    }
  | {
      type: "web_search";
      external_web_access?: boolean;
      indexed_web_access?: boolean;
      filters?: { allowed_domains: string[] };
      user_location?: { type: "approximate"; country?: string; region?: string; city?: string; timezone?: string };
      search_context_size?: "low" | "medium" | "high";
      search_content_types?: string[];
    }
  | ToolNamespace;

/** A tool's name; the hosted tools (web_search, tool_search) go by their type. */
export function toolName(spec: ToolSpec): string {
  return "name" in spec ? spec.name : spec.type;
}

/**
 * Tools grouped under a name: sent as one `namespace` tool (the collab tools' `multi_agent_v1`),
 * or an MCP server's as a tool_search_output carries them. The model calls a tool inside it by
 * its own name, and the call carries the namespace.
 */
export interface ToolNamespace {
  type: "namespace";
  name: string;
  description: string;
  tools: ToolSpec[];
}

export type ChatTool = { type: "function"; function: { name: string; description: string; parameters: JsonSchema } };

/**
 * The Lark grammar that constrains freeform `apply_patch` input. This is a format fact shared with
 * the reference and must stay byte-identical to what it sends.
 */
export const APPLY_PATCH_LARK_GRAMMAR =
  'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n\nhunk: add_hunk | delete_hunk | update_hunk\nadd_hunk: "*** Add File: " filename LF add_line+\ndelete_hunk: "*** Delete File: " filename LF\nupdate_hunk: "*** Update File: " filename LF change_move? change?\n\nfilename: /(.+)/\nadd_line: "+" /(.*)/ LF -> line\n\nchange_move: "*** Move to: " filename LF\nchange: (change_context | change_line)+ eof_line?\nchange_context: ("@@" | "@@ " /(.+)/) LF\nchange_line: ("+" | "-" | " ") /(.*)/ LF\neof_line: "*** End of File" LF\n\n%import common.LF\n';

/** How the function form of `apply_patch` describes the patch format (also used for the Chat wire). */
export const PATCH_FORMAT_SUMMARY = [
  "Edit files by sending a patch in `input`. Format:",
  "*** Begin Patch",
  "then one or more sections, each starting with `*** Add File: <path>` (every following line starts with +),",
  "`*** Delete File: <path>`, or `*** Update File: <path>` (optionally followed by `*** Move to: <path>`),",
  "whose changes are hunks introduced by `@@` (optionally `@@ <enclosing line>`), with lines prefixed by",
  "space (context), - (remove) or + (add);",
  "*** End Patch",
  "Paths must be relative. Give about three lines of context around each change.",
].join("\n");
