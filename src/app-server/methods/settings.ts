/**
 * Settings methods: the models to pick from, the effective config and writing one value of the
 * user's config.toml (in place, comments kept), and the skills seen from some folders.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import { discoverSkills } from "../../config/skills.js";
import { findProjectRoot } from "../../util/project-root.js";
import { ConfigEditError, setKeyPath } from "../../config/toml-edit.js";
import { modelCatalog } from "../../host/models.js";
import { writeFileAtomic } from "../../util/atomic-write.js";
import { Params } from "../params.js";
import type { AppServer, Method, MethodContext } from "../server.js";
import { errorCode } from "../../util/errors.js";

const EFFORT_NOTES: Record<string, string> = {
  low: "Quick answers, little deliberation",
  medium: "A balance of speed and depth",
  high: "More deliberation for hard problems",
};

const listModels: Method = async ({ server }, params) => {
  const config = server.loadConfig({});
  const includeHidden = params.optionalBoolean("includeHidden") === true;
  void includeHidden; // the catalog hides nothing
  const data = modelCatalog(config).map((m) => ({
    id: m.slug,
    model: m.slug,
    upgrade: null,
    upgradeInfo: null,
    availabilityNux: null,
    displayName: m.slug,
    description: m.slug === config.model ? "The configured model" : "A model family codex-ts knows",
    modelSpecialty: null,
    hidden: false,
    supportedReasoningEfforts: m.supportsReasoning ? Object.entries(EFFORT_NOTES).map(([reasoningEffort, description]) => ({ reasoningEffort, description })) : [],
    defaultReasoningEffort: m.defaultReasoningEffort ?? "medium",
    inputModalities: ["text", "image"],
    supportsPersonality: false,
    multiAgentVersion: null,
    additionalSpeedTiers: [],
    serviceTiers: [],
    defaultServiceTier: null,
    availableAccessPrograms: null,
    isDefault: m.slug === config.model,
  }));
  return { data, nextCursor: null };
};

const readConfig: Method = async ({ server }, params) => {
  const config = server.loadConfig({ ...(params.optionalString("cwd") !== undefined ? { cwd: params.optionalString("cwd") } : {}) });
  const layers = params.optionalBoolean("includeLayers") === true ? config.configFiles.map((file) => ({ name: { type: "user", file, profile: config.profile }, version: fileVersion(file) })) : null;
  return { config: config.toml, origins: {}, layers };
};

/** A file's version for `expectedVersion` checks: the hash of its bytes ("" for a missing file). */
function fileVersion(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return "";
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if (errorCode(err) === "ENOENT") return "";
    throw err;
  }
}

interface ConfigEdit {
  keyPath: string[];
  value: unknown;
  merge: "replace" | "upsert";
}

function configEdit(params: Params): ConfigEdit {
  const keyPath = params.string("keyPath").split(".").filter((p) => p !== "");
  if (keyPath.length === 0) throw invalidRequest("Invalid request: `keyPath` names no setting");
  return { keyPath, value: params.raw("value") ?? null, merge: params.optionalEnum("mergeStrategy", ["replace", "upsert"] as const) ?? "replace" };
}

/**
 * The config file a write may go to: the user's (the default), a profile's or another TOML file
 * in CODEX_HOME, or a project's `.codex/config.toml`. A client names no other file: the server
 * would otherwise write wherever a connected client asked.
 */
function configFilePath(server: AppServer, requested: string | undefined): string {
  if (requested === undefined) return join(server.codexHome, "config.toml");
  const path = resolve(requested);
  const inHome = path.startsWith(`${resolve(server.codexHome)}${sep}`) && path.endsWith(".toml");
  const project = basename(path) === "config.toml" && basename(dirname(path)) === ".codex";
  if (!inHome && !project) throw invalidRequest(`${requested} is not a config file codex-ts writes (config.toml files in CODEX_HOME or a project's .codex folder)`);
  return path;
}

/** Applies the edits to the config file in one write (all or none), after checking its version. */
function writeEdits(server: AppServer, params: Params, edits: ConfigEdit[]): object {
  const filePath = configFilePath(server, params.optionalString("filePath"));
  const expected = params.optionalString("expectedVersion");
  if (expected !== undefined && expected !== fileVersion(filePath)) throw invalidRequest(`${filePath} changed since version ${expected}; read it again before writing`);
  const before = readText(filePath);
  let text = before;
  for (const edit of edits) {
    try {
      text = setKeyPath(text, edit.keyPath, edit.value, edit.merge);
    } catch (err) {
      if (err instanceof ConfigEditError) throw invalidRequest(`could not write ${edit.keyPath.join(".")}: ${err.message}`);
      throw err;
    }
  }
  writeFileAtomic(filePath, text);
  // The written values must still load; a config they break is put back as it was.
  try {
    server.loadConfig({});
  } catch (err) {
    writeFileAtomic(filePath, before);
    throw err;
  }
  return { status: "ok", version: fileVersion(filePath), filePath, overriddenMetadata: null };
}

const writeValue: Method = async ({ server }, params) => writeEdits(server, params, [configEdit(params)]);

const batchWrite: Method = async ({ server }, params) => {
  const edits = params.array("edits").map((raw) => configEdit(new Params(raw)));
  return writeEdits(server, params, edits);
};

const listSkills: Method = async ({ server }, params) => {
  const cwds = params.optionalStrings("cwds");
  const folders = cwds && cwds.length > 0 ? cwds : [process.cwd()];
  const data = folders.map((cwd) => {
    const found = discoverSkills({ codexHome: server.codexHome, cwd, projectRoot: findProjectRoot(cwd, [".git"]) ?? cwd });
    return {
      cwd,
      skills: found.skills.map((s) => ({
        name: s.name,
        description: s.description,
        ...(s.shortDescription !== undefined ? { shortDescription: s.shortDescription } : {}),
        path: s.path,
        scope: s.scope,
        enabled: true,
        pluginId: null,
      })),
      errors: found.errors.map((e) => ({ path: e.path, message: e.message })),
    };
  });
  return { data };
};

export const settingsMethods: Record<string, (ctx: MethodContext, params: Params) => Promise<unknown>> = {
  "model/list": listModels,
  "config/read": readConfig,
  "config/value/write": writeValue,
  "config/batchWrite": batchWrite,
  "skills/list": listSkills,
};
