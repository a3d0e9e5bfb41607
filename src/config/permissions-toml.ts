/**
 * `[permissions.<name>]` tables in the reference's format, checked and resolved: a profile's
 * `extends` chain merged (the child's keys win, scoped tables merge key by key), and the
 * built-in profiles `:read-only`, `:workspace` and `:danger-full-access`.
 *
 * ```toml
 * default_permissions = "locked"
 * [permissions.locked]
 * extends = ":workspace"
 * [permissions.locked.filesystem]
 * ":project_roots" = { "secrets/**" = "none" }
 * "~/.aws" = "none"
 * glob_scan_max_depth = 6
 * [permissions.locked.network]
 * enabled = false
 * ```
 *
 * codex-ts's own built-ins deny, out of the box, `.env` files anywhere in the project roots and
 * SSH private keys (by their usual names) in the project roots and in `~/.ssh`. A profile that
 * extends a built-in inherits those entries and may turn one off by giving the same key
 * `"read"`; a profile that extends nothing starts from nothing. Those inherited denials stay
 * marked as the built-in's (`defaultDenials`) until a profile writes the same entry itself.
 */
import type { TomlTable } from "./overrides.js";
import { didYouMean } from "../util/nearest.js";

export type AccessToml = "read" | "write" | "none";
export type FilesystemEntryToml = AccessToml | Record<string, AccessToml>;

export interface ProfileToml {
  extends?: string;
  /** Extra project roots (`[permissions.<name>.workspace_roots]` entries set to true). */
  workspaceRoots: string[];
  filesystem: Record<string, FilesystemEntryToml>;
  globScanMaxDepth: number | null;
  networkEnabled: boolean | null;
  /** Network keys codex-ts reads but cannot enforce (proxy, domain and socket rules). */
  networkExtras: string[];
  /**
   * The entries (`denialKey(key, sub)`) that are still the built-in denials as a built-in
   * profile made them: no profile in the `extends` chain wrote them itself.
   */
  defaultDenials: ReadonlySet<string>;
}

export const BUILTIN_READ_ONLY = ":read-only";
export const BUILTIN_WORKSPACE = ":workspace";
export const BUILTIN_FULL_ACCESS = ":danger-full-access";
export const BUILTIN_PROFILES = [BUILTIN_READ_ONLY, BUILTIN_WORKSPACE, BUILTIN_FULL_ACCESS] as const;

export const SPECIAL_PATHS = [":root", ":minimal", ":project_roots", ":workspace_roots", ":tmpdir", ":slash_tmp"] as const;

/** The SSH private keys' usual file names (public keys and other `id_*` files stay readable). */
const SSH_KEYS = "id_{rsa,dsa,ecdsa,ecdsa_sk,ed25519,ed25519_sk}";

/** What the built-in profiles deny out of the box (docs/sandbox.md, "Denied paths"). */
export const DEFAULT_DENIALS: Readonly<Record<string, Record<string, AccessToml>>> = {
  ":project_roots": { "**/.env": "none", [`**/${SSH_KEYS}`]: "none" },
  "~/.ssh": { [SSH_KEYS]: "none" },
};

/** How `defaultDenials` names the entry `sub` of the filesystem key `key`. */
export function denialKey(key: string, sub: string): string {
  return `${key}\0${sub}`;
}

const BUILTIN_DENIAL_KEYS: ReadonlySet<string> = new Set(
  Object.entries(DEFAULT_DENIALS).flatMap(([key, entries]) => Object.keys(entries).map((sub) => denialKey(key, sub))),
);

const NETWORK_KEYS = [
  "enabled", "proxy_url", "enable_socks5", "socks_url", "enable_socks5_udp", "allow_upstream_proxy",
  "dangerously_allow_non_loopback_proxy", "dangerously_allow_all_unix_sockets", "mode", "domains", "unix_sockets", "allow_local_binding",
];

function builtinProfile(name: string): ProfileToml | null {
  const base = { workspaceRoots: [], globScanMaxDepth: null, networkEnabled: null, networkExtras: [], defaultDenials: BUILTIN_DENIAL_KEYS };
  switch (name) {
    case BUILTIN_READ_ONLY:
      return { ...base, filesystem: { ":root": "read", ...copyEntries(DEFAULT_DENIALS) } };
    case BUILTIN_WORKSPACE: {
      const denials = copyEntries(DEFAULT_DENIALS);
      return {
        ...base,
        filesystem: { ":root": "read", ...denials, ":project_roots": { ".": "write", ...denials[":project_roots"] }, ":tmpdir": "write", ":slash_tmp": "write" },
      };
    }
    case BUILTIN_FULL_ACCESS:
      return { ...base, filesystem: { ":root": "write" }, networkEnabled: true, defaultDenials: new Set() };
    default:
      return null;
  }
}

function copyEntries(entries: Readonly<Record<string, Record<string, AccessToml>>>): Record<string, Record<string, AccessToml>> {
  return Object.fromEntries(Object.entries(entries).map(([key, value]) => [key, { ...value }]));
}

/** `"none"` is also spelled `"deny"`, as the reference accepts both. */
export function accessOf(value: unknown): AccessToml | null {
  if (value === "read" || value === "write" || value === "none") return value;
  if (value === "deny") return "none";
  return null;
}

export function isGlob(text: string): boolean {
  return /[*?[{]/.test(text);
}

/** For the schema: what is wrong with a `[permissions.<name>.filesystem]` table, or null. */
export function filesystemProblem(value: unknown): string | null {
  if (!isPlainTable(value)) return "must be a table of paths";
  for (const [key, entry] of Object.entries(value)) {
    if (key === "glob_scan_max_depth") {
      if (typeof entry !== "number" || !Number.isInteger(entry) || entry < 1) return "glob_scan_max_depth must be an integer of at least 1";
      continue;
    }
    const keyProblem = rootKeyProblem(key);
    if (keyProblem !== null) return keyProblem;
    if (typeof entry === "string") {
      if (accessOf(entry) === null) return accessProblem(key, entry);
      continue;
    }
    if (!isPlainTable(entry)) return `\`${key}\` must be "read", "write", "none", or a table of paths below it`;
    for (const [sub, access] of Object.entries(entry)) {
      if (sub.startsWith("/") || sub.startsWith("~")) return `\`${key}\` = { "${sub}" = … }: paths below a root must be relative to it`;
      if (accessOf(access) === null) return accessProblem(`${key}.${sub}`, access);
    }
  }
  return null;
}

/** For the schema: what is wrong with a `[permissions.<name>.network]` table, or null. */
export function networkProblem(value: unknown): string | null {
  if (!isPlainTable(value)) return "must be a table";
  if (value.enabled !== undefined && typeof value.enabled !== "boolean") return "enabled must be true or false";
  return null;
}

export const NETWORK_TABLE_KEYS: readonly string[] = NETWORK_KEYS;

function rootKeyProblem(key: string): string | null {
  if (key.startsWith(":")) {
    if ((SPECIAL_PATHS as readonly string[]).includes(key)) return null;
    return `\`${key}\` is not a special path codex-ts knows (${SPECIAL_PATHS.join(", ")})${didYouMean(key, SPECIAL_PATHS)}`;
  }
  if (key.startsWith("/") || key === "~" || key.startsWith("~/")) return null;
  return `filesystem path \`${key}\` must be absolute, start with \`~/\`, or be a special path such as \`:project_roots\``;
}

function accessProblem(where: string, value: unknown): string {
  return `\`${where}\` = ${JSON.stringify(value)}: the access must be "read", "write" or "none" (also spelled "deny")`;
}

/**
 * The profile `name` with its `extends` chain merged in. Throws an Error whose message names the
 * problem (unknown profile, a cycle, a reserved name).
 */
export function resolveProfile(permissions: TomlTable, name: string): ProfileToml {
  const chain: string[] = [];
  const load = (current: string): ProfileToml => {
    if (chain.includes(current)) throw new Error(`permissions profile \`${name}\` extends itself: ${[...chain, current].join(" → ")}`);
    chain.push(current);
    const builtin = builtinProfile(current);
    if (builtin !== null) return builtin;
    if (current.startsWith(":")) {
      throw new Error(`\`${current}\` is not a built-in permissions profile (${BUILTIN_PROFILES.join(", ")})${didYouMean(current, BUILTIN_PROFILES)}`);
    }
    const raw = permissions[current];
    if (!isPlainTable(raw)) {
      const known = Object.keys(permissions);
      const hint = known.length > 0 ? ` (defined: ${known.join(", ")})` : " ([permissions] defines none)";
      throw new Error(`permissions profile \`${current}\` is not defined${hint}${didYouMean(current, known)}`);
    }
    const own = profileFromToml(raw);
    return own.extends === undefined ? own : mergeProfiles(load(own.extends), own);
  };
  return load(name);
}

/** Names under `[permissions]` must not look like built-ins. */
export function reservedNameProblem(permissions: TomlTable): string | null {
  const reserved = Object.keys(permissions).find((key) => key.startsWith(":"));
  return reserved === undefined ? null : `permissions profile \`${reserved}\` uses the \`:\` prefix, which is kept for built-in profiles`;
}

function profileFromToml(raw: TomlTable): ProfileToml {
  const filesystem: Record<string, FilesystemEntryToml> = {};
  let globScanMaxDepth: number | null = null;
  const fsTable = isPlainTable(raw.filesystem) ? raw.filesystem : {};
  for (const [key, value] of Object.entries(fsTable)) {
    if (key === "glob_scan_max_depth") {
      globScanMaxDepth = typeof value === "number" ? value : null;
    } else if (typeof value === "string") {
      filesystem[key] = accessOf(value) ?? "none";
    } else if (isPlainTable(value)) {
      filesystem[key] = Object.fromEntries(Object.entries(value).map(([sub, access]) => [sub, accessOf(access) ?? "none"]));
    }
  }
  const network = isPlainTable(raw.network) ? raw.network : {};
  const roots = isPlainTable(raw.workspace_roots) ? raw.workspace_roots : {};
  return {
    ...(typeof raw.extends === "string" ? { extends: raw.extends } : {}),
    workspaceRoots: Object.entries(roots).filter(([, on]) => on === true).map(([path]) => path),
    filesystem,
    globScanMaxDepth,
    networkEnabled: typeof network.enabled === "boolean" ? network.enabled : null,
    networkExtras: Object.keys(network).filter((key) => key !== "enabled"),
    defaultDenials: new Set(),
  };
}

function mergeProfiles(parent: ProfileToml, child: ProfileToml): ProfileToml {
  const filesystem: Record<string, FilesystemEntryToml> = { ...parent.filesystem };
  // An inherited built-in denial the child writes again (or replaces) is the child's own from then on.
  const defaultDenials = new Set(parent.defaultDenials);
  for (const [key, value] of Object.entries(child.filesystem)) {
    const inherited = filesystem[key];
    filesystem[key] = typeof value === "object" && typeof inherited === "object" ? { ...inherited, ...value } : value;
    const written = typeof value === "object" ? Object.keys(value) : typeof inherited === "object" ? Object.keys(inherited) : [];
    for (const sub of written) defaultDenials.delete(denialKey(key, sub));
  }
  return {
    workspaceRoots: [...new Set([...parent.workspaceRoots, ...child.workspaceRoots])],
    filesystem,
    globScanMaxDepth: child.globScanMaxDepth ?? parent.globScanMaxDepth,
    networkEnabled: child.networkEnabled ?? parent.networkEnabled,
    networkExtras: [...new Set([...parent.networkExtras, ...child.networkExtras])],
    defaultDenials,
  };
}

function isPlainTable(value: unknown): value is TomlTable {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
