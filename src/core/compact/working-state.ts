/**
 * The working state a compaction must never lose from the model's view: the current plan (the
 * last `update_plan` call) and the files the agent touched recently (paths named by its patches).
 * Both are read back from history, so they survive resumes, and carried into the compacted
 * history as one `<working_state>` note; a later compaction reads the note back as well.
 */
import type { ResponseItem } from "../../protocol/items.js";

export const WORKING_STATE_TAG = "<working_state>";
const WORKING_STATE_END = "</working_state>";
const PLAN_HEADER = "Current plan (the last update_plan call):";
const FILES_HEADER = "Files changed recently (newest first):";
/** How many paths the note lists: enough to find one's way back, not a whole tree. */
export const MAX_RECENT_FILES = 20;

const PATCH_PATH = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

function callText(item: ResponseItem): { name: string; text: string } | null {
  if (item.type === "custom_tool_call") return { name: item.name, text: item.input };
  if (item.type !== "function_call") return null;
  // Arguments are JSON: read their string values so patch lines appear as lines.
  let text = item.arguments;
  try {
    text = JSON.stringify(JSON.parse(item.arguments), (_k, v: unknown) => v).replace(/\\n/g, "\n");
  } catch {
    // Malformed arguments: scan them as they are.
  }
  return { name: item.name, text };
}

function planText(args: string): string | null {
  try {
    const parsed = JSON.parse(args) as { explanation?: unknown; plan?: unknown };
    if (!Array.isArray(parsed.plan)) return null;
    const lines = parsed.plan.flatMap((p: unknown) => {
      const step = p as { step?: unknown; status?: unknown };
      return typeof step.step === "string" ? [`- [${typeof step.status === "string" ? step.status : "pending"}] ${step.step}`] : [];
    });
    if (typeof parsed.explanation === "string" && parsed.explanation.trim()) lines.unshift(parsed.explanation.trim());
    return lines.join("\n");
  } catch {
    return null;
  }
}

function noteText(item: ResponseItem): string | null {
  if (item.type !== "message" || item.role !== "user") return null;
  const first = item.content[0];
  return first?.type === "input_text" && first.text.startsWith(WORKING_STATE_TAG) ? first.text : null;
}

function section(note: string, header: string): string | null {
  const start = note.indexOf(header);
  if (start === -1) return null;
  const body = note.slice(start + header.length).replace(/^\n/, "");
  const end = body.search(/\n\n|\n<\/working_state>/);
  return (end === -1 ? body : body.slice(0, end)).trim() || null;
}

/** The note for these items, or null when there is neither a plan nor a touched file. */
export function workingStateNote(items: readonly ResponseItem[]): string | null {
  let plan: string | null = null;
  const files: string[] = [];
  const seen = new Set<string>();
  const addFile = (path: string): void => {
    const p = path.trim();
    if (p && !seen.has(p) && files.length < MAX_RECENT_FILES) {
      seen.add(p);
      files.push(p);
    }
  };
  // Newest first: the last plan wins, and the newest paths lead the list.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!item) continue;
    const note = noteText(item);
    if (note !== null) {
      plan ??= section(note, PLAN_HEADER);
      for (const line of (section(note, FILES_HEADER) ?? "").split("\n")) if (line.startsWith("- ")) addFile(line.slice(2));
      continue;
    }
    const call = callText(item);
    if (!call) continue;
    if (call.name === "update_plan" && plan === null && item.type === "function_call") plan = planText(item.arguments);
    const paths = [...call.text.matchAll(PATCH_PATH)].map((m) => m[1] ?? "").reverse();
    for (const p of paths) addFile(p);
  }
  if (plan === null && files.length === 0) return null;
  const parts = [WORKING_STATE_TAG, "Kept across the summary of earlier work, so it stays in view:"];
  if (plan !== null) parts.push("", PLAN_HEADER, plan);
  if (files.length > 0) parts.push("", FILES_HEADER, ...files.map((f) => `- ${f}`));
  parts.push(WORKING_STATE_END);
  return parts.join("\n");
}

export function isWorkingStateNote(item: ResponseItem): boolean {
  return noteText(item) !== null;
}
