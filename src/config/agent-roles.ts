/**
 * Sub-agent settings: `[agents] max_threads` and `max_depth`, and the roles the model may give a
 * sub-agent (`agent_type`). Three roles are built in (default, explorer, worker). The user adds
 * roles as files in `$CODEX_HOME/agents/*.toml` or as `[agents.<name>]` tables (with a
 * `config_file`), and a trusted project adds its own in `.codex/agents/*.toml`; a later source
 * replaces a role of the same name (built-in < user < project).
 *
 * A role file holds `name`, `description`, `nickname_candidates` and config keys, which apply to
 * the sub-agent as one more config layer: its model, reasoning settings, developer instructions,
 * and a sandbox mode that can only narrow the parent's (core/agents/ enforces that; the approval
 * policy is always the parent's, so a child never asks where nobody can answer).
 * A role file that cannot be used is skipped with a warning naming the file and the problem.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { readTextFile } from "../util/bounded-read.js";
import {
  REASONING_EFFORTS,
  REASONING_SUMMARIES,
  SANDBOX_MODES,
  type ReasoningEffort,
  type ReasoningSummary,
  type SandboxMode,
} from "../protocol/policy.js";
import { checkLayer, fileLayer } from "./layers.js";
import { ConfigError, type TomlTable } from "./overrides.js";
import { DEFAULT_AGENT_MAX_DEPTH, DEFAULT_AGENT_MAX_THREADS, KNOWN_TOP_LEVEL_KEYS, isTable } from "./schema.js";

/** What a role changes about the sub-agent it is given to (null: inherited from the parent). */
export interface RoleSettings {
  model: string | null;
  reasoningEffort: ReasoningEffort | null;
  reasoningSummary: ReasoningSummary | null;
  developerInstructions: string | null;
  /** May only narrow the parent's sandbox; the approval policy is always the parent's. */
  sandboxMode: SandboxMode | null;
}

export interface AgentRole {
  name: string;
  description: string;
  /** Built into codex-ts, as opposed to defined by the user or a project. */
  builtin: boolean;
  /** Where it was defined (a file, `config.toml [agents.<name>]`, or `built-in`). */
  source: string;
  /** Nicknames for agents of this role; empty: the common list. */
  nicknameCandidates: string[];
  settings: RoleSettings;
}

export interface AgentsSettings {
  maxThreads: number;
  maxDepth: number;
  roles: AgentRole[];
}

/** The config keys a role file may set for its agents. */
const ROLE_SETTING_KEYS = [
  "model",
  "model_reasoning_effort",
  "model_reasoning_summary",
  "developer_instructions",
  "sandbox_mode",
] as const;

/** The role's own keys, which are not config. */
const ROLE_KEYS = ["name", "description", "nickname_candidates"] as const;

const NO_SETTINGS: RoleSettings = {
  model: null,
  reasoningEffort: null,
  reasoningSummary: null,
  developerInstructions: null,
  sandboxMode: null,
};

/** The built-in roles, in our own words. */
export const BUILTIN_ROLES: readonly AgentRole[] = [
  {
    name: "default",
    description: "A general-purpose agent, set up like you.",
  },
  {
    name: "explorer",
    description: [
      "For focused questions about the codebase: where something is defined, how a piece works, what calls what.",
      "Explorers read and answer quickly; trust what they report rather than checking it again yourself.",
      "Ask each explorer one well-scoped question; start several at once for independent questions, and send follow-ups to the one that already has the context.",
    ].join("\n"),
  },
  {
    name: "worker",
    description: [
      "For doing the work: implementing part of a feature, fixing tests or bugs, one slice of a larger refactor.",
      "Tell each worker which files or modules it owns, so that parallel workers do not edit the same files.",
      "Tell workers that others are editing the codebase too: they must not undo changes they did not make, and should fit their work around them.",
    ].join("\n"),
  },
].map((role) => ({ ...role, builtin: true, source: "built-in", nicknameCandidates: [], settings: NO_SETTINGS }));

export interface AgentsInput {
  /** The merged config table (`[agents]` is read from it). */
  table: TomlTable;
  codexHome: string;
  /** The `.codex` folders of trusted projects, root first. */
  trustedDotCodex: readonly string[];
  /** Where problems that do not stop the run go. */
  warnings: string[];
}

export function loadAgentsSettings(input: AgentsInput): AgentsSettings {
  const agents = isTable(input.table.agents) ? input.table.agents : {};
  const roles = new Map<string, AgentRole>(BUILTIN_ROLES.map((role) => [role.name, role]));
  const add = (role: AgentRole | null): void => {
    if (role) roles.set(role.name, role);
  };
  for (const file of tomlFiles(join(input.codexHome, "agents"))) add(roleFromFile(file, null, input.warnings));
  for (const [name, value] of Object.entries(agents)) {
    if (!isTable(value)) continue; // max_threads and the other settings
    add(roleFromTable(name, value, input.warnings));
  }
  for (const dir of input.trustedDotCodex) for (const file of tomlFiles(join(dir, "agents"))) add(roleFromFile(file, null, input.warnings));
  return {
    maxThreads: typeof agents.max_threads === "number" ? agents.max_threads : DEFAULT_AGENT_MAX_THREADS,
    maxDepth: typeof agents.max_depth === "number" ? agents.max_depth : DEFAULT_AGENT_MAX_DEPTH,
    roles: [...roles.values()],
  };
}

/** `[agents.<name>]` in config.toml: a description, nicknames, and optionally a role file for the settings. */
function roleFromTable(name: string, table: TomlTable, warnings: string[]): AgentRole | null {
  const configFile = typeof table.config_file === "string" ? table.config_file : null;
  const fromFile = configFile === null ? null : roleFromFile(configFile, name, warnings);
  if (configFile !== null && fromFile === null) return null;
  const nicknames = Array.isArray(table.nickname_candidates) ? table.nickname_candidates.filter((n): n is string => typeof n === "string") : [];
  return {
    name,
    description: typeof table.description === "string" ? table.description : (fromFile?.description ?? ""),
    builtin: false,
    source: fromFile?.source ?? `config.toml [agents.${name}]`,
    nicknameCandidates: nicknames.length > 0 ? nicknames : (fromFile?.nicknameCandidates ?? []),
    settings: fromFile?.settings ?? NO_SETTINGS,
  };
}

/** A role file; `fallbackName` names a role whose file need not say its name. Null (and a warning) when unusable. */
function roleFromFile(file: string, fallbackName: string | null, warnings: string[]): AgentRole | null {
  try {
    const layer = fileLayer(file, readTextFile(file));
    const own: TomlTable = {};
    const settings: TomlTable = {};
    for (const [key, value] of Object.entries(layer.table)) {
      if ((ROLE_KEYS as readonly string[]).includes(key)) own[key] = value;
      else settings[key] = value;
    }
    const name = own.name ?? fallbackName ?? basename(file, ".toml");
    if (typeof name !== "string" || !/^[A-Za-z0-9_-]+$/.test(name)) {
      throw new ConfigError(`${layer.where(["name"])}: name: expected a role name of letters, digits, '-' or '_', got ${JSON.stringify(name)}`);
    }
    if (own.description !== undefined && typeof own.description !== "string") {
      throw new ConfigError(`${layer.where(["description"])}: description: expected a string`);
    }
    const nicknames = own.nickname_candidates;
    if (nicknames !== undefined && !(Array.isArray(nicknames) && nicknames.every((n) => typeof n === "string" && n.trim() !== ""))) {
      throw new ConfigError(`${layer.where(["nickname_candidates"])}: nickname_candidates: expected an array of non-empty strings`);
    }
    // The settings are one more config layer: checked by the same schema as config.toml.
    checkLayer({ ...layer, table: settings }, warnings, null);
    for (const key of Object.keys(settings)) {
      // A key the schema does not know was reported already.
      if (KNOWN_TOP_LEVEL_KEYS.has(key) && !(ROLE_SETTING_KEYS as readonly string[]).includes(key)) {
        warnings.push(`${layer.where([key])}: '${key}' does not apply to a sub-agent's role and is ignored (a role sets ${ROLE_SETTING_KEYS.join(", ")})`);
      }
    }
    return {
      name,
      description: typeof own.description === "string" ? own.description : "",
      builtin: false,
      source: file,
      nicknameCandidates: (nicknames as string[] | undefined) ?? [],
      settings: roleSettings(settings),
    };
  } catch (err) {
    const message = (err as Error).message;
    warnings.push(`sub-agent role ${message.startsWith(file) ? message : `${file}: ${message}`} (the role is not available)`);
    return null;
  }
}

function roleSettings(t: TomlTable): RoleSettings {
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | null => {
    const value = t[key];
    return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : null;
  };
  return {
    model: typeof t.model === "string" ? t.model : null,
    reasoningEffort: oneOf("model_reasoning_effort", REASONING_EFFORTS),
    reasoningSummary: oneOf("model_reasoning_summary", REASONING_SUMMARIES),
    developerInstructions: typeof t.developer_instructions === "string" ? t.developer_instructions : null,
    sandboxMode: oneOf("sandbox_mode", SANDBOX_MODES),
  };
}

/** The `.toml` files of a folder, by name; none when it does not exist. */
function tomlFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".toml"))
      .map((entry) => join(dir, entry.name))
      .sort();
  } catch {
    return [];
  }
}
