/**
 * Skills: folders holding a `SKILL.md` whose front matter gives the skill a `name` (at most 64
 * characters) and a `description` (at most 1,024). They are found where the reference looks:
 * the repository's `.codex/skills`, `.agents/skills` in each folder from the project root down to
 * the working directory, then the user's `~/.agents/skills` and `$CODEX_HOME/skills`, then the
 * administrator's `/etc/codex/skills` (six folders deep at most). Their names and descriptions go
 * into the model's instructions; a skill's body is sent only when the user mentions it
 * (`$name`). A file that cannot be read or lacks what it needs is reported, never fatal.
 */
import { readdirSync, statSync } from "node:fs";
import { readTextFile } from "../util/bounded-read.js";
import { homedir } from "node:os";
import { join, relative, sep } from "node:path";
import { parseFrontMatter } from "./front-matter.js";
import { errorMessage } from "../util/errors.js";

export type SkillScope = "repo" | "user" | "admin";

export interface Skill {
  name: string;
  description: string;
  shortDescription?: string;
  /** The SKILL.md file. */
  path: string;
  scope: SkillScope;
}

export interface SkillError {
  path: string;
  message: string;
}

export interface SkillsOutcome {
  skills: Skill[];
  errors: SkillError[];
}

const MAX_DEPTH = 6;
const MAX_DIRS_PER_ROOT = 2000;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

export interface SkillRootsInput {
  codexHome: string;
  cwd: string;
  projectRoot: string;
  /** The user's home folder (for `~/.agents/skills`); the process's by default. */
  home?: string;
  /** The administrator's folder; `/etc/codex/skills` by default. */
  adminRoot?: string;
}

export function skillRoots(input: SkillRootsInput): Array<{ dir: string; scope: SkillScope }> {
  const roots: Array<{ dir: string; scope: SkillScope }> = [{ dir: join(input.projectRoot, ".codex", "skills"), scope: "repo" }];
  for (const dir of foldersDown(input.projectRoot, input.cwd)) roots.push({ dir: join(dir, ".agents", "skills"), scope: "repo" });
  roots.push({ dir: join(input.home ?? homedir(), ".agents", "skills"), scope: "user" });
  roots.push({ dir: join(input.codexHome, "skills"), scope: "user" });
  roots.push({ dir: input.adminRoot ?? "/etc/codex/skills", scope: "admin" });
  return roots;
}

export function discoverSkills(input: SkillRootsInput): SkillsOutcome {
  const outcome: SkillsOutcome = { skills: [], errors: [] };
  const seenNames = new Set<string>();
  const seenFiles = new Set<string>();
  for (const root of skillRoots(input)) {
    for (const file of skillFiles(root.dir)) {
      if (seenFiles.has(file)) continue;
      seenFiles.add(file);
      const result = readSkill(file, root.scope);
      if ("message" in result) outcome.errors.push(result);
      else if (!seenNames.has(result.name)) {
        // The first root wins a name: the repository's skill shadows a user's of the same name.
        seenNames.add(result.name);
        outcome.skills.push(result);
      }
    }
  }
  return outcome;
}

/** A SKILL.md's text: only a regular file, refused past the size a settings file may have. */
export function readSkillFile(path: string): string {
  return readTextFile(path);
}

function readSkill(path: string, scope: SkillScope): Skill | SkillError {
  let data: Record<string, unknown>;
  try {
    data = parseFrontMatter(readSkillFile(path)).data;
  } catch (err) {
    return { path, message: `cannot read the skill: ${errorMessage(err)}` };
  }
  const name = data.name;
  const description = data.description;
  if (typeof name !== "string" || name.trim() === "") return { path, message: "the front matter needs a `name`" };
  if (name.length > MAX_NAME) return { path, message: `the name is longer than ${MAX_NAME} characters` };
  if (/\s/.test(name)) return { path, message: "the name cannot contain spaces" };
  if (typeof description !== "string" || description.trim() === "") return { path, message: "the front matter needs a `description`" };
  if (description.length > MAX_DESCRIPTION) return { path, message: `the description is longer than ${MAX_DESCRIPTION} characters` };
  const metadata = data.metadata;
  const short = typeof metadata === "object" && metadata !== null ? (metadata as Record<string, unknown>)["short-description"] : undefined;
  return { name, description: description.trim(), ...(typeof short === "string" ? { shortDescription: short } : {}), path, scope };
}

/** SKILL.md files under `root`, breadth first, within the depth and folder limits. */
function skillFiles(root: string): string[] {
  const files: string[] = [];
  const queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  let visited = 0;
  while (queue.length > 0 && visited < MAX_DIRS_PER_ROOT) {
    const { dir, depth } = queue.shift() as { dir: string; depth: number };
    visited += 1;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      // A FIFO or device by that name is listed too, so that reading refuses it with a warning.
      if (entry.name === "SKILL.md" && !entry.isDirectory() && !entry.isSymbolicLink()) files.push(join(dir, entry.name));
      else if (entry.isDirectory() && !entry.name.startsWith(".") && depth < MAX_DEPTH) queue.push({ dir: join(dir, entry.name), depth: depth + 1 });
    }
  }
  return files;
}

function foldersDown(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel.startsWith("..") || statSafe(cwd) === null) return [cwd];
  const dirs = [root];
  let current = root;
  for (const part of rel.split(sep).filter(Boolean)) {
    current = join(current, part);
    dirs.push(current);
  }
  return dirs;
}

function statSafe(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** The skills section of the model's instructions (our own words; the list is what matters). */
export function skillsInstructions(skills: readonly Skill[]): string | null {
  if (skills.length === 0) return null;
  const lines = skills.map((s) => `- ${s.name}: ${s.description} (file: ${s.path})`);
  return [
    "## Skills",
    "Skills are instructions for particular kinds of work, each kept in a SKILL.md file. These are available:",
    ...lines,
    "When the user mentions a skill as $name, its file's content follows their message; follow it. When a task clearly fits a skill the user did not mention, open its file and follow it too.",
  ].join("\n");
}

/** The skills the user's text mentions as `$name` (or `[$name](path)`), in order of mention. */
export function mentionedSkills(text: string, skills: readonly Skill[]): Skill[] {
  const byName = new Map(skills.map((s) => [s.name, s]));
  const found: Skill[] = [];
  for (const match of text.matchAll(/\$([A-Za-z0-9_][A-Za-z0-9_.:-]*)/g)) {
    const skill = byName.get((match[1] ?? "").replace(/[.:]+$/, ""));
    if (skill && !found.includes(skill)) found.push(skill);
  }
  return found;
}

/** What the model reads for a mentioned skill, right after the user's message. */
export function skillInjection(skill: Skill, body: string): string {
  return `<skill>\n<name>${skill.name}</name>\n<path>${skill.path}</path>\n${body.trim()}\n</skill>`;
}
