/**
 * YAML front matter at the top of a Markdown file (`---` … `---`), as SKILL.md files and
 * custom prompts carry it. The YAML parser loads on first use: sessions without such files
 * never pay for it.
 */
import { createRequire } from "node:module";

export interface FrontMatterDocument {
  /** The front matter's keys; empty when the file has none. */
  data: Record<string, unknown>;
  /** Everything after the front matter. */
  body: string;
}

const require = createRequire(import.meta.url);
let yaml: typeof import("yaml") | null = null;

/** Throws with the YAML parser's message when the front matter is not valid YAML or not a map. */
export function parseFrontMatter(text: string): FrontMatterDocument {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  yaml ??= require("yaml") as typeof import("yaml");
  const parsed: unknown = yaml.parse(match[1] ?? "");
  if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) throw new Error("the front matter is not a map of keys");
  return { data: (parsed ?? {}) as Record<string, unknown>, body: text.slice(match[0].length) };
}
