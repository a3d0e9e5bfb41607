/**
 * Which permissions a run gets, and what they mean for the sandbox: the legacy `sandbox_mode`
 * (with `[sandbox_workspace_write]`), or a permission profile (`default_permissions`, `-P`).
 *
 * The two do not combine, as in the reference: when `sandbox_mode` is set anywhere (a config
 * file, a `[profiles.<name>]` table, `-c`, `--sandbox`), the legacy settings decide and a
 * configured `default_permissions` is not used. Unlike the reference, codex-ts says so with a
 * warning rather than leaving a deny list silently unenforced; `-c` overrides of both at once
 * are an error, and `-P` wins over a `sandbox_mode` from a file (it is the newer, explicit choice)
 * but cannot be combined with `--sandbox`.
 *
 * Either way the result is the legacy policy (what the sandbox layers and the protocol know:
 * read-only, workspace-write with its roots, full access) plus file-system rules beyond it
 * (sandbox/fs-rules.ts). The legacy modes get the deny entries of the matching built-in profile,
 * so `.env` files and SSH keys are off limits out of the box.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { sandboxPolicyFor, type SandboxMode, type SandboxPolicy } from "../protocol/policy.js";
import { NO_FILESYSTEM_RULES, relativeBelow, type DenyGlob, type FileSystemRules, type FsAccess, type PathRule } from "../sandbox/fs-rules.js";
import { PROTECTED_SUBPATHS } from "../sandbox/writable-roots.js";
import { originOf, type Layer } from "./layers.js";
import { ConfigError, type TomlTable } from "./overrides.js";
import {
  BUILTIN_FULL_ACCESS,
  BUILTIN_READ_ONLY,
  BUILTIN_WORKSPACE,
  denialKey,
  isGlob,
  reservedNameProblem,
  resolveProfile,
  type ProfileToml,
} from "./permissions-toml.js";
import { errorMessage } from "../util/errors.js";

export interface PermissionsInput {
  /** The merged config. */
  table: TomlTable;
  /** Every layer, the built-in defaults first. */
  layers: readonly Layer[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `--add-dir`s, absolute. */
  addDirs: readonly string[];
  /** `-P NAME`. */
  cliProfile?: string;
  /** Set when `--sandbox`, `--full-auto` or the bypass flag chose a mode. */
  cliSandboxMode?: SandboxMode;
  /** The mode when nothing sets one (it follows the folder's trust); read-only unless given. */
  defaultMode?: SandboxMode;
}

export interface Permissions {
  /** The legacy mode the policy corresponds to (what the environment context and the UIs show). */
  sandboxMode: SandboxMode;
  sandboxPolicy: SandboxPolicy;
  fileSystem: FileSystemRules;
  /** The permission profile in effect; null when `sandbox_mode` decided. */
  profile: string | null;
  warnings: string[];
}

export function selectPermissions(input: PermissionsInput): Permissions {
  const configured = input.layers.slice(1);
  const modeLayer = originOf(configured, ["sandbox_mode"]);
  const profileLayer = originOf(configured, ["default_permissions"]);
  const permissions = isTable(input.table.permissions) ? input.table.permissions : {};
  const reserved = reservedNameProblem(permissions);
  if (reserved !== null) throw new ConfigError(`${originOf(configured, ["permissions"])?.name ?? "config"}: ${reserved}`);

  if (input.cliProfile !== undefined) {
    if (input.cliSandboxMode !== undefined) {
      throw new ConfigError("-P/--permissions cannot be combined with --sandbox, --full-auto or --dangerously-bypass-approvals-and-sandbox: choose one");
    }
    return fromProfile(input, permissions, input.cliProfile, `-P ${input.cliProfile}`);
  }
  const profileName = input.table.default_permissions;
  if (modeLayer !== undefined || typeof profileName !== "string") {
    const warnings: string[] = [];
    if (modeLayer !== undefined && profileLayer !== undefined && typeof profileName === "string") {
      if (modeLayer.name.startsWith("-c ") && profileLayer.name.startsWith("-c ")) {
        throw new ConfigError("`sandbox_mode` and `default_permissions` overrides cannot both be set: choose one");
      }
      warnings.push(
        `${profileLayer.where(["default_permissions"])}: default_permissions = "${profileName}" is not used, and none of its rules are enforced, ` +
          `because sandbox_mode is set (${modeLayer.where(["sandbox_mode"])}); the two do not combine. Remove sandbox_mode to use the profile.`,
      );
    }
    return { ...fromLegacy(input), warnings };
  }
  return fromProfile(input, permissions, profileName, profileLayer?.where(["default_permissions"]) ?? "default_permissions");
}

/** `sandbox_mode` and `[sandbox_workspace_write]`, as before profiles, plus the built-in denials. */
function fromLegacy(input: PermissionsInput): Omit<Permissions, "warnings"> {
  const t = input.table;
  const mode = oneOfModes(t.sandbox_mode) ?? input.defaultMode ?? "read-only";
  const workspace = isTable(t.sandbox_workspace_write) ? t.sandbox_workspace_write : {};
  const policy = sandboxPolicyFor(mode, [...strings(workspace.writable_roots), ...input.addDirs]);
  if (policy.type === "workspace-write") {
    policy.network_access = workspace.network_access === true;
    policy.exclude_slash_tmp = workspace.exclude_slash_tmp === true;
    policy.exclude_tmpdir_env_var = workspace.exclude_tmpdir_env_var === true;
  }
  if (mode === "danger-full-access") return { sandboxMode: mode, sandboxPolicy: policy, fileSystem: NO_FILESYSTEM_RULES, profile: null };
  const builtin = resolveProfile({}, mode === "read-only" ? BUILTIN_READ_ONLY : BUILTIN_WORKSPACE);
  const compiled = compileProfile(builtin, input, []);
  // Only the denials: what may be written stays as the legacy settings say.
  const fileSystem = { ...compiled.fileSystem, paths: compiled.fileSystem.paths.filter((rule) => rule.access === "none") };
  return { sandboxMode: mode, sandboxPolicy: policy, fileSystem, profile: null };
}

function fromProfile(input: PermissionsInput, permissions: TomlTable, name: string, where: string): Permissions {
  if (name === BUILTIN_FULL_ACCESS) {
    return { sandboxMode: "danger-full-access", sandboxPolicy: { type: "danger-full-access" }, fileSystem: NO_FILESYSTEM_RULES, profile: name, warnings: [] };
  }
  let profile: ProfileToml;
  try {
    profile = resolveProfile(permissions, name);
  } catch (err) {
    throw new ConfigError(`${where}: ${errorMessage(err)}`);
  }
  const warnings: string[] = [];
  if (name === BUILTIN_WORKSPACE) {
    // As in the reference, the built-in workspace profile takes its network and temporary
    // folder settings from [sandbox_workspace_write].
    const workspace = isTable(input.table.sandbox_workspace_write) ? input.table.sandbox_workspace_write : {};
    profile = {
      ...profile,
      networkEnabled: workspace.network_access === true,
      filesystem: {
        ...profile.filesystem,
        ...(workspace.exclude_tmpdir_env_var === true ? { ":tmpdir": "read" } : {}),
        ...(workspace.exclude_slash_tmp === true ? { ":slash_tmp": "read" } : {}),
      },
    };
  }
  for (const key of profile.networkExtras) {
    warnings.push(`${where}: permissions.${name}.network.${key} is not enforced by codex-ts: network access is all or nothing (enabled = true or false)`);
  }
  const compiled = compileProfile(profile, input, warnings, name);
  return { ...compiled, profile: name, warnings };
}

interface Compiled {
  sandboxMode: SandboxMode;
  sandboxPolicy: SandboxPolicy;
  fileSystem: FileSystemRules;
}

/** A resolved profile as the legacy policy plus the rules beyond it. */
function compileProfile(profile: ProfileToml, input: PermissionsInput, warnings: string[], name = "built-in"): Compiled {
  const home = input.env.HOME || homedir();
  const projectRoots = [input.cwd, ...profile.workspaceRoots.map((root) => expandHome(root, home, input.cwd))];
  const rules = new Map<string, FsAccess>();
  // Denied paths that only the built-in denials deny (a denial of the user's at the same path wins).
  const deniedByDefault = new Set<string>();
  const globs: DenyGlob[] = [];
  const setRule = (path: string, access: FsAccess, byDefault: boolean): void => {
    const previous = rules.get(path);
    if (access === "none" && previous === "none") {
      if (!byDefault) deniedByDefault.delete(path);
      return;
    }
    // At one path "none" wins, then "write" (as in the reference, write beats read).
    if (previous === undefined || rank(access) > rank(previous)) {
      rules.set(path, access);
      if (access === "none" && byDefault) deniedByDefault.add(path);
    }
  };

  for (const [key, entry] of Object.entries(profile.filesystem)) {
    if (key === ":minimal") continue;
    const bases = basesOf(key, projectRoots, input.env, home);
    const scoped = typeof entry === "string" ? { ".": entry } : entry;
    for (const base of bases) {
      for (const [sub, access] of Object.entries(scoped)) {
        const byDefault = profile.defaultDenials.has(denialKey(key, sub));
        if (!isGlob(sub)) {
          setRule(resolve(base, sub), access, byDefault);
        } else if (access === "none") {
          globs.push({ ...splitGlob(base, sub), ...(byDefault ? { byDefault } : {}) });
        } else {
          warnings.push(`permissions.${name}.filesystem: \`${key}\` = { "${sub}" = "${access}" } is ignored: only "none" can be given to a pattern`);
        }
      }
    }
  }

  const root = rules.get("/");
  if (root === undefined || root === "none") {
    throw new ConfigError(
      `permissions.${name}.filesystem: codex-ts needs \`":root" = "read"\` (or a profile that extends :read-only or :workspace): ` +
        `limiting reads to some folders is not supported yet; deny what must stay hidden with "none" instead`,
    );
  }
  const access = (path: string): FsAccess => deepestAccess(rules, path);
  const writes = [...rules].filter(([, a]) => a === "write").map(([path]) => path);
  const networkEnabled = profile.networkEnabled === true;
  const policy = legacyPolicy(writes, input, networkEnabled, access);
  const writable = policy.type === "workspace-write";
  if (!writable && input.addDirs.length > 0) warnings.push(`--add-dir is ignored: the permission profile ${name} lets nothing be written`);

  const paths: PathRule[] = [];
  for (const [path, ruleAccess] of rules) {
    if (path === "/") continue;
    const above = parentRule(rules, path);
    if (ruleAccess === "none") paths.push({ path, access: "none", ...(deniedByDefault.has(path) ? { byDefault: true } : {}) });
    // A read rule matters only where writes would otherwise be allowed; .git and .codex right
    // below a writable root are read-only anyway.
    else if (ruleAccess === "read" && above.access === "write" && writable && !isProtectedSubpath(rules, path)) paths.push({ path, access: "read" });
    // A write rule is a writable root of the legacy policy, and needs a rule of its own only to
    // reopen a folder inside a hidden or read-only one.
    else if (ruleAccess === "write" && above.path !== "/" && above.access !== "write") paths.push({ path, access: "write" });
  }
  // The legacy workspace-write policy always lets the working directory be written.
  if (writable && access(input.cwd) === "read" && !paths.some((rule) => rule.path === input.cwd)) paths.unshift({ path: input.cwd, access: "read" });

  return {
    sandboxMode: policy.type,
    sandboxPolicy: policy,
    fileSystem: { paths, denyGlobs: globs, globScanMaxDepth: profile.globScanMaxDepth, searchRoots: projectRoots },
  };
}

function legacyPolicy(writes: string[], input: PermissionsInput, networkEnabled: boolean, access: (path: string) => FsAccess): SandboxPolicy {
  if (writes.length === 0 && !networkEnabled) return { type: "read-only" };
  const tmpdir = input.env.TMPDIR ? resolve(input.env.TMPDIR) : null;
  const slashTmpWritable = access("/tmp") === "write";
  const tmpdirWritable = tmpdir !== null && access(tmpdir) === "write";
  const roots = writes.filter((path) => path !== input.cwd && path !== "/tmp" && path !== tmpdir);
  return {
    type: "workspace-write",
    writable_roots: [...new Set([...roots, ...input.addDirs])],
    network_access: networkEnabled,
    exclude_tmpdir_env_var: !tmpdirWritable,
    exclude_slash_tmp: !slashTmpWritable,
  };
}

function basesOf(key: string, projectRoots: string[], env: NodeJS.ProcessEnv, home: string): string[] {
  switch (key) {
    case ":root":
      return ["/"];
    case ":project_roots":
    case ":workspace_roots":
      return projectRoots;
    case ":tmpdir":
      return env.TMPDIR ? [resolve(env.TMPDIR)] : [];
    case ":slash_tmp":
      return ["/tmp"];
    default:
      return [expandHome(key, home, "/")];
  }
}

function expandHome(path: string, home: string, base: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}

/** `sub/**\/.env` below `base` → base `base/sub`, pattern `**\/.env`: the walk starts deepest. */
function splitGlob(base: string, pattern: string): DenyGlob {
  const parts = pattern.split("/").filter((part) => part !== "" && part !== ".");
  const firstGlob = parts.findIndex(isGlob);
  return { base: resolve(base, ...parts.slice(0, firstGlob)), pattern: parts.slice(firstGlob).join("/") };
}

function rank(access: FsAccess): number {
  return access === "none" ? 2 : access === "write" ? 1 : 0;
}

/** The deepest rule at or above `path`. */
function deepestRule(rules: Map<string, FsAccess>, path: string): { path: string; access: FsAccess } {
  let best: { path: string; depth: number; access: FsAccess } | null = null;
  for (const [rulePath, access] of rules) {
    if (relativeBelow(rulePath, path) === null) continue;
    const depth = rulePath === "/" ? 0 : rulePath.split("/").length;
    if (best === null || depth > best.depth) best = { path: rulePath, depth, access };
  }
  return best ?? { path: "/", access: "none" };
}

function deepestAccess(rules: Map<string, FsAccess>, path: string): FsAccess {
  return deepestRule(rules, path).access;
}

function parentRule(rules: Map<string, FsAccess>, path: string): { path: string; access: FsAccess } {
  return deepestRule(rules, resolve(path, ".."));
}

function isProtectedSubpath(rules: Map<string, FsAccess>, path: string): boolean {
  const parent = resolve(path, "..");
  return rules.get(parent) === "write" && (PROTECTED_SUBPATHS as readonly string[]).some((name) => join(parent, name) === path);
}

function oneOfModes(value: unknown): SandboxMode | undefined {
  return value === "read-only" || value === "workspace-write" || value === "danger-full-access" ? value : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
