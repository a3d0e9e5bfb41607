/**
 * `codex-ts features list | enable NAME | disable NAME`: the feature flags with their stage and
 * effective value (the reference's table: name, stage, value in aligned columns), and turning one
 * on or off in `$CODEX_HOME/config.toml` (or the profile's `[profiles.NAME.features]` with `-p`),
 * edited in place so comments and layout stay.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { codexHome } from "../config/codex-home.js";
import { FEATURE_NAMES, FEATURES, canonicalFeature } from "../config/features.js";
import { loadConfig } from "../config/load-config.js";
import { ConfigError } from "../config/overrides.js";
import { configInputFromFlags, type SessionFlags } from "../config/session-flags.js";
import { ConfigEditError, setTableValue } from "../config/toml-edit.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { didYouMean } from "../util/nearest.js";
import { errorCode, errorMessage } from "../util/errors.js";

export type FeaturesListOptions = Pick<SessionFlags, "config" | "profile" | "enable" | "disable">;

export function runFeaturesList(opts: FeaturesListOptions): number {
  let features: Record<string, boolean>;
  let suppress: boolean;
  try {
    const config = loadConfig(configInputFromFlags(resolve(process.cwd()), { ...opts, addDir: [] }));
    for (const warning of config.warnings) process.stderr.write(`warning: ${warning}\n`);
    features = config.features;
    suppress = config.suppressUnstableFeaturesWarning;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const nameWidth = Math.max(...FEATURES.map((f) => f.key.length)) + 2;
  const stageWidth = Math.max(...FEATURES.map((f) => f.stage.length)) + 2;
  const lines = FEATURES.map((f) => `${f.key.padEnd(nameWidth)}${f.stage.padEnd(stageWidth)}${String(features[f.key] ?? f.default)}`);
  process.stdout.write(`${lines.join("\n")}\n`);
  // Only the ones the user turned on: a few are on by default and warn nobody.
  const unstable = FEATURES.filter((f) => f.stage === "under development" && features[f.key] === true && !f.default).map((f) => f.key);
  if (unstable.length > 0 && !suppress) {
    process.stderr.write(
      `Under-development features on: ${unstable.join(", ")}. They may change or go away; suppress_unstable_features_warning = true in ${join(codexHome(), "config.toml")} hides this.\n`,
    );
  }
  return 0;
}

/** `features enable NAME` / `features disable NAME`. */
export function runFeaturesSet(name: string, enabled: boolean, opts: { profile?: string }): number {
  if (canonicalFeature(name) === null) {
    process.stderr.write(`Error: unknown feature flag '${name}'${didYouMean(name, FEATURE_NAMES)}. \`codex-ts features list\` names them all.\n`);
    return 1;
  }
  const home = codexHome();
  const file = join(home, "config.toml");
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (errorCode(err) !== "ENOENT") {
      process.stderr.write(`Error: cannot read ${file}: ${errorMessage(err)}\n`);
      return 1;
    }
  }
  const table = opts.profile === undefined ? ["features"] : ["profiles", opts.profile, "features"];
  try {
    const edited = setTableValue(text, table, name, enabled);
    mkdirSync(home, { recursive: true });
    writeFileAtomic(file, edited, 0o600);
  } catch (err) {
    if (err instanceof ConfigEditError) {
      process.stderr.write(`Error: ${file}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const where = opts.profile === undefined ? "config.toml" : `profile ${opts.profile} of config.toml`;
  process.stdout.write(`${enabled ? "Enabled" : "Disabled"} feature \`${name}\` in ${where}.\n`);
  return 0;
}
