import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type CliConfigInput, type Config } from "./load-config.js";
import { ConfigError } from "./overrides.js";

interface Home {
  home: string;
  cwd: string;
  file: string;
  env: NodeJS.ProcessEnv;
}

/** A CODEX_HOME with config.toml and `NAME.config.toml` files, and a working folder. */
function home(files: Record<string, string>): Home {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-ts-profiles-")));
  const dir = join(root, "home");
  mkdirSync(dir);
  mkdirSync(join(root, "work", ".git"), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { home: dir, cwd: join(root, "work"), file: join(dir, "config.toml"), env: { CODEX_HOME: dir } };
}

const load = (h: Home, more: Partial<CliConfigInput> = {}): Config => loadConfig({ cwd: h.cwd, overrides: [], env: h.env, ...more });

function failure(h: Home, more: Partial<CliConfigInput> = {}): string {
  try {
    load(h, more);
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

void test("--profile NAME layers $CODEX_HOME/NAME.config.toml over config.toml, any key included", () => {
  const h = home({
    "config.toml": 'model = "base"\nmodel_verbosity = "low"\n[history]\npersistence = "none"\n',
    "fast.config.toml": 'model = "quick"\nproject_doc_max_bytes = 10\nlog_dir = "logs"\n[history]\nmax_bytes = 500\n',
  });
  const c = load(h, { profile: "fast" });
  assert.equal(c.profile, "fast");
  assert.equal(c.model, "quick");
  assert.equal(c.verbosity, "low", "keys the profile file does not set come from config.toml");
  assert.equal(c.projectDocMaxBytes, 10, "a profile file is a whole config file, not limited to profile keys");
  assert.deepEqual(c.history, { persistence: "none", max_bytes: 500 }, "tables merge key by key");
  assert.equal(c.toml.log_dir, join(h.home, "logs"), "relative paths are relative to CODEX_HOME");
  assert.deepEqual(c.configFiles, [h.file, join(h.home, "fast.config.toml")]);
  assert.deepEqual(c.warnings, []);
  assert.equal(load(h).model, "base", "without a profile the file is not read");
});

void test('profile = "NAME" in config.toml and -c profile=NAME select the profile file too', () => {
  const h = home({ "config.toml": 'profile = "fast"\nmodel = "base"\n', "fast.config.toml": 'model = "quick"\n', "deep.config.toml": 'model = "slow"\n' });
  assert.equal(load(h).model, "quick");
  assert.equal(load(h, { overrides: ["profile=deep"] }).model, "slow");
  assert.equal(load(h, { profile: "deep" }).model, "slow", "--profile beats profile =");
  assert.equal(load(h, { profile: "deep", overrides: ['model="flag"'] }).model, "flag", "-c beats the profile file");
  assert.equal(load(h, { profile: "deep", model: "cli" }).model, "cli");
});

void test("a trusted project's .codex/config.toml overrides the profile file, and the legacy table overrides both", () => {
  const h = home({});
  const repo = join(h.cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".codex"));
  writeFileSync(join(repo, ".codex", "config.toml"), 'model = "project"\n');
  writeFileSync(h.file, `model = "base"\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n[profiles.both]\nmodel_reasoning_effort = "high"\n`);
  writeFileSync(join(h.home, "file.config.toml"), 'model = "profile-file"\nmodel_reasoning_effort = "low"\n');
  writeFileSync(join(h.home, "both.config.toml"), 'model_verbosity = "high"\nmodel_reasoning_effort = "low"\n');
  assert.equal(load(h, { cwd: repo, profile: "file" }).model, "project");
  assert.equal(load(h, { cwd: repo, profile: "file" }).reasoningEffort, "low");

  const both = load(h, { cwd: repo, profile: "both" });
  assert.equal(both.reasoningEffort, "high", "the [profiles.NAME] table wins where both forms set a key");
  assert.equal(both.verbosity, "high", "the file's other keys still apply");
  assert.deepEqual(both.warnings, [
    `profile 'both' is defined twice, in ${join(h.home, "both.config.toml")} and as [profiles.both] in ${h.file}: both apply, and the table wins where both set a key (move its settings into ${join(h.home, "both.config.toml")} and remove the table)`,
  ]);
});

void test("a profile file may choose the trusted projects and the provider, as config.toml can", () => {
  const h = home({ "config.toml": 'model = "base"\n' });
  const repo = join(h.cwd, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, ".codex"));
  writeFileSync(join(repo, ".codex", "config.toml"), 'model = "project"\n');
  writeFileSync(
    join(h.home, "work.config.toml"),
    `model_provider = "local"\n[model_providers.local]\nbase_url = "http://127.0.0.1:9/v1"\n[projects.${JSON.stringify(repo)}]\ntrust_level = "trusted"\n`,
  );
  const c = load(h, { cwd: repo, profile: "work" });
  assert.equal(c.model, "project");
  assert.equal(c.provider.baseUrl, "http://127.0.0.1:9/v1");
});

void test("errors in a profile file name that file and line; unknown keys in it warn with the nearest key", () => {
  const h = home({ "config.toml": "", "bad.config.toml": 'model = "a"\nsandbox_mode = "workspace"\n', "broken.config.toml": "[tui\n", "typo.config.toml": 'modle = "x"\nprofile = "other"\n' });
  const file = join(h.home, "bad.config.toml");
  assert.equal(failure(h, { profile: "bad" }), `${file}:2: sandbox_mode: 'workspace' is not one of read-only, workspace-write, danger-full-access (did you mean workspace-write?)`);
  assert.match(failure(h, { profile: "broken" }), new RegExp(`^${join(h.home, "broken.config.toml").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1:5: invalid TOML: unclosed table header, expected '\\]'`));
  const typo = join(h.home, "typo.config.toml");
  assert.deepEqual(load(h, { profile: "typo" }).warnings, [
    `${typo}:1: unknown config key 'modle' is ignored (did you mean model?)`,
    `${typo}:2: profile has no effect inside a profile file`,
  ]);
});

void test("a missing profile names both places looked at, and where the profile was chosen", () => {
  const h = home({ "config.toml": 'model = "a"\n\nprofile = "gone"\n' });
  const file = join(h.home, "gone.config.toml");
  assert.equal(failure(h), `${h.file}:3: profile: no profile 'gone': neither ${file} nor a [profiles.gone] table in ${h.file} exists`);
  assert.equal(
    failure(h, { profile: "other" }),
    `--profile other: no profile 'other': neither ${join(h.home, "other.config.toml")} nor a [profiles.other] table in ${h.file} exists`,
  );
});

void test("a profile name that cannot be a file name is looked up only as a table", () => {
  const h = home({ "config.toml": '[profiles."../x"]\nmodel = "table"\n', "x.config.toml": 'model = "outside"\n' });
  assert.equal(load(h, { profile: "../x" }).model, "table");
  assert.equal(failure(h, { profile: "a/b" }), `--profile a/b: no profile 'a/b': no [profiles."a/b"] table in ${h.file}`);
});
