/**
 * How the agent's work looks as ACP tool calls: a title, a kind (which picks the editor's icon),
 * the files it touches (so the editor can follow along) and its content (diffs for patches, the
 * output of commands, an MCP tool's result). Pure functions of the events' payloads.
 */
import type { ContentBlock, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { basename, isAbsolute, relative, resolve } from "node:path";
import type { FileChange, ParsedCommand } from "../protocol/events.js";
import type { McpCallToolResult, McpInvocation } from "../protocol/mcp-events.js";
import { displayCommand } from "../presentation/command-text.js";

export interface CallShape {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/** A command by what it does: reading a file, listing or searching, or running something. */
export function commandShape(command: readonly string[], cwd: string, parsed: readonly ParsedCommand[]): CallShape {
  // A command that is not only reads, listings and searches is shown as the command it runs.
  if (parsed.length === 0 || parsed.some((p) => p.type === "unknown")) return { title: `Run ${displayCommand(command)}`, kind: "execute", locations: [] };
  const titles: string[] = [];
  const kinds = new Set<ToolKind>();
  const locations: ToolCallLocation[] = [];
  for (const part of parsed) {
    switch (part.type) {
      case "read":
        titles.push(`Read ${part.name}`);
        kinds.add("read");
        locations.push({ path: resolve(cwd, part.name) });
        break;
      case "list_files":
        titles.push(`List ${part.path ?? "."}`);
        kinds.add("search");
        if (part.path !== null) locations.push({ path: resolve(cwd, part.path) });
        break;
      case "search":
        titles.push(part.query === null ? `Search ${part.path ?? "."}` : `Search ${part.query}${part.path === null ? "" : ` in ${part.path}`}`);
        kinds.add("search");
        break;
      case "unknown":
        break;
    }
  }
  const kind: ToolKind = kinds.size === 1 ? ([...kinds][0] as ToolKind) : "search";
  return { title: titles.join(", "), kind, locations };
}

/** A patch: its files, and a diff for each. */
export function patchShape(changes: Record<string, FileChange>, cwd: string): CallShape & { content: ToolCallContent[] } {
  const paths = Object.keys(changes);
  const kinds = new Set<ToolKind>();
  const locations: ToolCallLocation[] = [];
  const content: ToolCallContent[] = [];
  for (const path of paths) {
    const change = changes[path] as FileChange;
    switch (change.type) {
      case "add":
        kinds.add("edit");
        locations.push({ path });
        content.push({ type: "diff", path, oldText: null, newText: change.content });
        break;
      case "delete":
        kinds.add("delete");
        locations.push({ path });
        content.push({ type: "diff", path, oldText: change.content, newText: "" });
        break;
      case "update": {
        kinds.add(change.move_path === null ? "edit" : "move");
        const diff = sidesOfDiff(change.unified_diff);
        const target = change.move_path ?? path;
        locations.push({ path: target, ...(diff.firstNewLine !== null ? { line: diff.firstNewLine } : {}) });
        content.push({ type: "diff", path: target, oldText: diff.oldText, newText: diff.newText });
        break;
      }
    }
  }
  const names = paths.map((p) => shortPath(p, cwd));
  const verb = kinds.size === 1 && kinds.has("delete") ? "Delete" : kinds.size === 1 && kinds.has("move") ? "Move" : "Edit";
  const kind: ToolKind = kinds.size === 1 ? ([...kinds][0] as ToolKind) : "edit";
  return { title: `${verb} ${names.join(", ")}`, kind, locations, content };
}

/**
 * The text on each side of a unified diff, hunk by hunk (context and removed lines on the old
 * side, context and added ones on the new): what an editor needs to show the change without the
 * whole file. Hunks are separated by a blank line on both sides.
 */
export function sidesOfDiff(unified: string): { oldText: string; newText: string; firstNewLine: number | null } {
  const oldHunks: string[][] = [];
  const newHunks: string[][] = [];
  let firstNewLine: number | null = null;
  for (const line of unified.split("\n")) {
    const header = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      firstNewLine ??= Number(header[1]);
      oldHunks.push([]);
      newHunks.push([]);
      continue;
    }
    const oldLines = oldHunks.at(-1);
    const newLines = newHunks.at(-1);
    if (!oldLines || !newLines || line.startsWith("\\")) continue;
    const body = line.slice(1);
    if (line.startsWith(" ")) {
      oldLines.push(body);
      newLines.push(body);
    } else if (line.startsWith("-") && !line.startsWith("---")) {
      oldLines.push(body);
    } else if (line.startsWith("+") && !line.startsWith("+++")) {
      newLines.push(body);
    }
  }
  const join = (hunks: string[][]): string => hunks.map((h) => h.join("\n")).join("\n\n");
  return { oldText: join(oldHunks), newText: join(newHunks), firstNewLine };
}

export function mcpShape(invocation: McpInvocation): CallShape {
  return { title: `${invocation.server}: ${invocation.tool}`, kind: "other", locations: [] };
}

/** An MCP tool's result as content the editor can show (text, images, resources); anything else as JSON text. */
export function mcpResultContent(result: McpCallToolResult): ToolCallContent[] {
  return result.content.map((part): ToolCallContent => ({ type: "content", content: contentBlockOf(part) }));
}

function contentBlockOf(part: unknown): ContentBlock {
  const p = (typeof part === "object" && part !== null ? part : {}) as Record<string, unknown>;
  const str = (v: unknown): v is string => typeof v === "string";
  if (p.type === "text" && str(p.text)) return { type: "text", text: p.text };
  if (p.type === "image" && str(p.data) && str(p.mimeType)) return { type: "image", data: p.data, mimeType: p.mimeType };
  if (p.type === "resource_link" && str(p.uri) && str(p.name)) return { type: "resource_link", uri: p.uri, name: p.name };
  const resource = (typeof p.resource === "object" && p.resource !== null ? p.resource : {}) as Record<string, unknown>;
  if (p.type === "resource" && str(resource.uri) && str(resource.text)) {
    return { type: "resource", resource: { uri: resource.uri, text: resource.text, ...(str(resource.mimeType) ? { mimeType: resource.mimeType } : {}) } };
  }
  return { type: "text", text: JSON.stringify(part) };
}

/** Text shown as it is, in a fenced block no line of it can close. */
export function fenced(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n$/, "")}\n${fence}`;
}

export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** A path relative to the working folder when it is inside it, else its name. */
function shortPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : basename(path);
}
