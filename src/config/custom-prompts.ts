/**
 * Custom prompts: Markdown files in `$CODEX_HOME/prompts/` that a UI offers as
 * `/prompts:NAME`. The file name (without `.md`) is the name; optional front matter gives a
 * `description` and an `argument-hint`. Expanding one fills its placeholders from what the user
 * typed after the command: `$1`…`$9` (positional words), `$ARGUMENTS` (all of them), `$KEY`
 * for `KEY=value` words, and `$$` for a literal `$`.
 */
import { readdirSync } from "node:fs";
import { readTextFile } from "../util/bounded-read.js";
import { join } from "node:path";
import { parseFrontMatter } from "./front-matter.js";
import { splitShellWords } from "../util/shell-words.js";
import { errorMessage } from "../util/errors.js";

export interface CustomPrompt {
  name: string;
  path: string;
  /** The prompt's text, without its front matter. */
  content: string;
  description?: string;
  argument_hint?: string;
}

export function promptsDir(codexHome: string): string {
  return join(codexHome, "prompts");
}

/** The prompts in `dir`, sorted by name; unreadable files are skipped and reported. */
export function discoverPrompts(dir: string): { prompts: CustomPrompt[]; errors: Array<{ path: string; message: string }> } {
  const prompts: CustomPrompt[] = [];
  const errors: Array<{ path: string; message: string }> = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  } catch {
    return { prompts, errors };
  }
  for (const file of names) {
    const path = join(dir, file);
    try {
      const { data, body } = parseFrontMatter(readTextFile(path));
      prompts.push({
        name: file.slice(0, -3),
        path,
        content: body,
        ...(typeof data.description === "string" ? { description: data.description } : {}),
        ...(typeof data["argument-hint"] === "string" ? { argument_hint: data["argument-hint"] } : {}),
      });
    } catch (err) {
      errors.push({ path, message: errorMessage(err) });
    }
  }
  return { prompts, errors };
}

/** The prompt's text with its placeholders filled from `argumentsText` (what followed the command). */
export function expandPrompt(content: string, argumentsText: string): string {
  const words = splitShellWords(argumentsText) ?? argumentsText.split(/\s+/).filter(Boolean);
  const named = new Map<string, string>();
  const positional: string[] = [];
  for (const word of words) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(word);
    if (m) named.set(m[1] ?? "", m[2] ?? "");
    else positional.push(word);
  }
  return content.replace(/\$(\$|ARGUMENTS\b|[1-9]|[A-Z][A-Z0-9_]*)/g, (whole, key: string) => {
    if (key === "$") return "$";
    if (key === "ARGUMENTS") return positional.join(" ");
    if (/^[1-9]$/.test(key)) return positional[Number(key) - 1] ?? "";
    return named.has(key) ? (named.get(key) ?? "") : whole;
  });
}
