/**
 * Project config: `.codex/config.toml` files in the folders from the project root down to the
 * working directory, root first (so the closest one wins). As in the reference they load only
 * for trusted projects, `[projects."<abs path>"] trust_level = "trusted"` in the user's own
 * config.toml, looked up for the folder itself, then the project root, then the git repository
 * root (the main checkout of a worktree). Keys that could send credentials elsewhere or run
 * programs (model_provider, model_providers, openai_base_url, notify, profile, …) are ignored
 * there.
 */
import { realpathSync, statSync } from "node:fs";
import { readTextFile } from "../util/bounded-read.js";
import { dirname, join, resolve, sep } from "node:path";
import { findProjectRoot } from "../util/project-root.js";
import { checkLayer, readFileLayer, type Layer } from "./layers.js";
import { isTable, USER_ONLY_KEYS } from "./schema.js";

export type TrustLevel = "trusted" | "untrusted";

export interface ProjectConfigInput {
  cwd: string;
  codexHome: string;
  /** The user's config.toml, named in hints. */
  userConfigFile: string;
  /** The `projects` table from the user's config (and `-c`). */
  projects: unknown;
  rootMarkers: readonly string[];
}

export interface ProjectConfig {
  /** Trusted projects' layers, root first. */
  layers: Layer[];
  /** Why a file was skipped, which keys were ignored, unknown keys. */
  warnings: string[];
  /**
   * Of those, the files skipped because nobody decided yet whether to trust their project: a
   * front end that asks the trust question answers these itself.
   */
  undecidedTrustWarnings: string[];
  /** The working directory's trust level, null when the user has not said. */
  trustLevel: TrustLevel | null;
  projectRoot: string;
  /** The `.codex` folders of trusted projects, root first (their `rules/` hold command rules). */
  trustedDotCodex: string[];
}

/** The working directory (real path), its project root and its git repository root. */
function projectScope(dir: string, rootMarkers: readonly string[]): { cwd: string; projectRoot: string; repoRoot: string | null } {
  const cwd = real(dir);
  const projectRoot = rootMarkers.length > 0 ? (findProjectRoot(cwd, rootMarkers) ?? cwd) : cwd;
  return { cwd, projectRoot, repoRoot: gitRepoRoot(cwd) };
}

/**
 * The project's own `.codex` folders (from the project root down to `dir`; `$CODEX_HOME` is not
 * one) and the path a trust decision about them is saved under when the user has not made one:
 * the git repository root, else the project root, the last place the loader looks; and whether
 * there is a git repository.
 */
export function projectSettingsFolders(dir: string, codexHome: string, rootMarkers: readonly string[]): { folders: string[]; trustKey: string; repository: boolean } {
  const { cwd, projectRoot, repoRoot } = projectScope(dir, rootMarkers);
  const home = real(codexHome);
  const folders = chain(projectRoot, cwd)
    .map((d) => join(d, ".codex"))
    .filter((d) => isDirectory(d) && real(d) !== home);
  return { folders, trustKey: repoRoot ?? projectRoot, repository: repoRoot !== null };
}

export function loadProjectConfig(input: ProjectConfigInput): ProjectConfig {
  const { cwd, projectRoot, repoRoot } = projectScope(input.cwd, input.rootMarkers);
  const trust = trustTable(input.projects);
  const decide = (dir: string): { level: TrustLevel | null; key: string } => {
    for (const key of [dir, projectRoot, repoRoot]) {
      const level = key === null ? undefined : trust.get(key);
      if (key !== null && level !== undefined) return { level, key };
    }
    return { level: null, key: repoRoot ?? projectRoot };
  };

  const home = real(input.codexHome);
  const layers: Layer[] = [];
  const warnings: string[] = [];
  const trustedDotCodex: string[] = [];
  const undecided: string[] = [];
  for (const dir of chain(projectRoot, cwd)) {
    const dotCodex = join(dir, ".codex");
    if (!isDirectory(dotCodex) || real(dotCodex) === home) continue;
    if (decide(dir).level === "trusted") trustedDotCodex.push(dotCodex);
    const file = join(dotCodex, "config.toml");
    // Anything by that name is read (and a FIFO or device refused by name), never passed over.
    if (!exists(file)) continue;
    const { level, key } = decide(dir);
    if (level !== "trusted") {
      const warning =
        level === "untrusted"
          ? `${file} is not loaded: ${key} is marked untrusted in ${input.userConfigFile}`
          : `${file} is not loaded because the project is not trusted; to load it, add [projects.${JSON.stringify(key)}] with trust_level = "trusted" to ${input.userConfigFile}`;
      warnings.push(warning);
      if (level === null) undecided.push(warning);
      continue;
    }
    const layer = readFileLayer(file);
    if (!layer) continue;
    const ignored = Object.keys(layer.table).filter((k) => USER_ONLY_KEYS.includes(k));
    for (const k of ignored) delete layer.table[k];
    if (ignored.length > 0) {
      const many = ignored.length > 1;
      warnings.push(`${layer.where([ignored[0] ?? ""])}: ${ignored.join(", ")} ${many ? "are" : "is"} ignored in a project config; set ${many ? "them" : "it"} in ${input.userConfigFile} instead`);
    }
    checkLayer(layer, warnings, dotCodex);
    layers.push(layer);
  }
  return { layers, warnings, undecidedTrustWarnings: undecided, trustLevel: decide(cwd).level, projectRoot, trustedDotCodex };
}

/** Folders from `root` down to `dir`, both included. */
function chain(root: string, dir: string): string[] {
  const dirs = [dir];
  for (let d = dir; d !== root && dirname(d) !== d; d = dirname(d)) dirs.unshift(dirname(d));
  return dirs[0] === root ? dirs : [dir];
}

/** `projects` entries by normalised absolute path (and by real path when that differs). */
function trustTable(projects: unknown): Map<string, TrustLevel> {
  const trust = new Map<string, TrustLevel>();
  if (!isTable(projects)) return trust;
  for (const [path, entry] of Object.entries(projects)) {
    if (!isTable(entry)) continue;
    const level = entry.trust_level;
    if (level !== "trusted" && level !== "untrusted") continue;
    const plain = stripTrailingSep(resolve(path));
    if (!trust.has(plain)) trust.set(plain, level);
    const realPath = real(plain);
    if (!trust.has(realPath)) trust.set(realPath, level);
  }
  return trust;
}

/**
 * The repository a folder belongs to, for trust: the folder holding `.git`, or for a worktree
 * (a `.git` file pointing into `<repo>/.git/worktrees/<name>`) the main checkout.
 */
export function gitRepoRoot(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const dotGit = join(d, ".git");
    if (isDirectory(dotGit)) return d;
    if (isFile(dotGit)) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit))?.[1];
      const gitDir = pointer ? resolve(d, pointer) : null;
      const main = gitDir ? /^(.*)[\\/]\.git[\\/]worktrees[\\/][^\\/]+[\\/]?$/.exec(gitDir)?.[1] : undefined;
      return main ? real(main) : d;
    }
    if (dirname(d) === d) return null;
  }
}

function stripTrailingSep(path: string): string {
  return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A `.git` file's text, or "" when it cannot be read (or is not a regular file of a sane size). */
function readText(path: string): string {
  try {
    return readTextFile(path);
  } catch {
    return "";
  }
}
