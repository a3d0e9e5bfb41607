/**
 * AGENTS.md discovery: the global file in CODEX_HOME, then one file per folder from the project
 * root (the nearest folder with a .git entry) down to cwd, root first, capped in total size.
 * Only regular files are read, and never past what the cap keeps (a repository's AGENTS.md may
 * be a link to /dev/zero, a FIFO or hundreds of megabytes); a file cut short or refused is
 * named in a warning.
 */
import { realpathSync } from "node:fs";
import { SETTINGS_FILE_MAX_BYTES, formatBytes, isRefusedFile, readTextPrefix } from "../util/bounded-read.js";
import { findProjectRoot } from "../util/project-root.js";
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

export interface AgentsMd {
  text: string | null;
  /** The files the text came from, in its order (what `/status` lists). */
  files: string[];
  /** Files cut at the size cap or refused (not regular files), each named. */
  warnings: string[];
}

/** Between the global file and the project's files, as the reference joins them. */
export const PROJECT_DOC_SEPARATOR = "\n\n--- project-doc ---\n\n";

export function loadAgentsMd(opts: AgentsMdOptions): AgentsMd {
  const warnings: string[] = [];
  const files: string[] = [];
  const global = firstReadable(opts.codexHome, GLOBAL_CANDIDATES, SETTINGS_FILE_MAX_BYTES, warnings, files, (path, kept, size) =>
    `${path}: only its first ${kept} of ${size} bytes were read (a global AGENTS.md may have up to ${formatBytes(SETTINGS_FILE_MAX_BYTES)}); shorten it`,
  );
  const project = projectDocs(opts, warnings, files);
  const text = global && project ? `${global}${PROJECT_DOC_SEPARATOR}${project}` : (global ?? project);
  return { text, files, warnings };
}

/** The files whose instructions `loadAgentsMd` gives, in its order (what `/status` lists). */
export function agentsMdFiles(opts: AgentsMdOptions): string[] {
  return loadAgentsMd(opts).files;
}

/** The project's files, root first, joined by blank lines and capped at maxBytes in total. */
function projectDocs(opts: AgentsMdOptions, warnings: string[], files: string[]): string | null {
  const parts: string[] = [];
  let budget = opts.maxBytes;
  for (const dir of opts.maxBytes > 0 ? projectDirs(opts.cwd, opts.rootMarkers) : []) {
    if (budget <= 0) break;
    const names = ["AGENTS.override.md", "AGENTS.md", ...opts.fallbackFilenames];
    const text = firstReadable(dir, names, budget, warnings, files, (path, kept, size) =>
      `${path}: only its first ${kept} of ${size} bytes are in the instructions, all that project_doc_max_bytes (${opts.maxBytes} bytes for every project file together) leaves room for; shorten it or raise project_doc_max_bytes`,
    );
    if (!text) continue;
    parts.push(text);
    budget -= Buffer.byteLength(text, "utf8");
  }
  return parts.length > 0 ? parts.join("\n\n") : null;
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

/** The first of `names` in `dir` with any text, trimmed, at most `maxBytes` of it (its path is added to `files`). */
function firstReadable(
  dir: string,
  names: string[],
  maxBytes: number,
  warnings: string[],
  files: string[],
  cutWarning: (path: string, kept: number, size: number) => string,
): string | null {
  for (const name of names) {
    const path = join(dir, name);
    try {
      const read = readTextPrefix(path, maxBytes);
      const text = read.text.trim();
      if (!text) continue;
      if (read.truncated) warnings.push(cutWarning(path, Buffer.byteLength(read.text, "utf8"), read.size));
      files.push(path);
      return text;
    } catch (err) {
      // Not there or unreadable: try the next name; a file refused for its kind is worth saying.
      if (isRefusedFile(err)) warnings.push(`${err.message}; skipped it`);
    }
  }
  return null;
}
