/**
 * AGENTS.md discovery: the global file in CODEX_HOME, then one file per folder from the project
 * root (the nearest folder with a .git entry) down to cwd, root first, capped in total size.
 */
import { readFileSync, realpathSync } from "node:fs";
import { findProjectRoot } from "./project-root.js";
import { dirname, join } from "node:path";

export const DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024;
const GLOBAL_CANDIDATES = ["AGENTS.override.md", "AGENTS.md"];

export interface AgentsMdOptions {
  codexHome: string;
  cwd: string;
  maxBytes: number;
  fallbackFilenames: string[];
  rootMarkers: string[];
}

/** Between the global file and the project's files, as the reference joins them. */
export const PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n";

export function loadAgentsMd(opts: AgentsMdOptions): string | null {
  const global = firstReadable(opts.codexHome, GLOBAL_CANDIDATES)?.text ?? null;
  const project = projectDocs(opts);
  const projectText = project.length > 0 ? project.map((d) => d.text).join("\n\n") : null;
  if (global && projectText) return `${global}${PROJECT_DOC_SEPARATOR}${projectText}`;
  return global ?? projectText;
}

/** The files whose instructions `loadAgentsMd` gives, in its order (what `/status` lists). */
export function agentsMdFiles(opts: AgentsMdOptions): string[] {
  const global = firstReadable(opts.codexHome, GLOBAL_CANDIDATES);
  return [...(global ? [global.path] : []), ...projectDocs(opts).map((d) => d.path)];
}

/** The project's files, root first, each cut to what is left of maxBytes in total. */
function projectDocs(opts: AgentsMdOptions): Array<{ path: string; text: string }> {
  const parts: Array<{ path: string; text: string }> = [];
  if (opts.maxBytes > 0) {
    let budget = opts.maxBytes;
    for (const dir of projectDirs(opts.cwd, opts.rootMarkers)) {
      const doc = firstReadable(dir, ["AGENTS.override.md", "AGENTS.md", ...opts.fallbackFilenames]);
      if (!doc || budget <= 0) continue;
      const bytes = Buffer.from(doc.text, "utf8");
      parts.push({ path: doc.path, text: bytes.length > budget ? bytes.subarray(0, budget).toString("utf8") : doc.text });
      budget -= Math.min(bytes.length, budget);
    }
  }
  return parts;
}

/** Folders from the project root down to cwd; just cwd when no root marker is found. */
function projectDirs(cwd: string, markers: string[]): string[] {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return [];
  }
  const root = findProjectRoot(dir, markers);
  if (root === null) return [dir];
  const chain = [dir];
  for (let d = dir; d !== root; d = dirname(d)) chain.unshift(dirname(d));
  return chain;
}

function firstReadable(dir: string, names: string[]): { path: string; text: string } | null {
  for (const name of names) {
    try {
      const path = join(dir, name);
      const text = readFileSync(path, "utf8");
      if (text.trim()) return { path, text: text.trim() };
    } catch {
      // Not there or unreadable: try the next name.
    }
  }
  return null;
}
