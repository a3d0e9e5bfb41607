import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "./load-config.js";
import { ConfigError, parseOverride } from "./overrides.js";

function home(configToml: string): { env: NodeJS.ProcessEnv; cwd: string } {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-config-"));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "work"));
  writeFileSync(join(root, "home", "config.toml"), configToml);
  return { env: { CODEX_HOME: join(root, "home") }, cwd: join(root, "work") };
}

void test("-c values are TOML when they parse, plain strings otherwise; keys may be dotted and quoted", () => {
  assert.deepEqual(parseOverride("model=o3"), { path: ["model"], value: "o3" });
  assert.deepEqual(parseOverride('model="o3"'), { path: ["model"], value: "o3" });
  assert.deepEqual(parseOverride("a.b.c=42"), { path: ["a", "b", "c"], value: 42 });
  assert.deepEqual(parseOverride('x=["PATH","HOME"]'), { path: ["x"], value: ["PATH", "HOME"] });
  assert.deepEqual(parseOverride('projects."/a.b".trust_level=trusted'), { path: ["projects", "/a.b", "trust_level"], value: "trusted" });
  assert.throws(() => parseOverride("novalue"), ConfigError);
});

void test("layers: file, then profile, then -c, then flags", () => {
  const { env, cwd } = home('model = "from-file"\nprofile = "fast"\n[profiles.fast]\nmodel = "from-profile"\nmodel_reasoning_effort = "low"\n');
  assert.equal(loadConfig({ cwd, overrides: [], env }).model, "from-profile");
  assert.equal(loadConfig({ cwd, overrides: ["model=from-c"], env }).model, "from-c");
  assert.equal(loadConfig({ cwd, overrides: ["model=from-c"], model: "from-flag", env }).model, "from-flag");
  assert.equal(loadConfig({ cwd, overrides: [], env }).reasoningEffort, "low");
});

void test("defaults: gpt-5.5 on the openai provider, read-only sandbox, OPENAI_BASE_URL honoured", () => {
  const { env, cwd } = home("");
  const config = loadConfig({ cwd, overrides: [], env: { ...env, OPENAI_BASE_URL: "http://127.0.0.1:1/v1" } });
  assert.equal(config.model, "gpt-5.5");
  assert.equal(config.provider.id, "openai");
  assert.equal(config.provider.baseUrl, "http://127.0.0.1:1/v1");
  assert.equal(config.sandboxPolicy.type, "read-only");
});

void test("custom providers carry their retry settings and headers", () => {
  const { env, cwd } = home(
    'model_provider = "az"\n[model_providers.az]\nname = "Azure"\nbase_url = "https://x.example/openai"\nenv_key = "AZ_KEY"\nquery_params = { api-version = "2025-04-01" }\nrequest_max_retries = 2\nstream_max_retries = 1000\n',
  );
  const p = loadConfig({ cwd, overrides: [], env }).provider;
  assert.equal(p.name, "Azure");
  assert.equal(p.envKey, "AZ_KEY");
  assert.deepEqual({ ...p.queryParams }, { "api-version": "2025-04-01" });
  assert.equal(p.requestMaxRetries, 2);
  assert.equal(p.streamMaxRetries, 100, "capped");
});

void test("a wrong type or value is an error naming the key; an unknown key is only a warning", () => {
  const bad = home('model = 5\n');
  assert.throws(() => loadConfig({ cwd: bad.cwd, overrides: [], env: bad.env }), /model: expected a string/);
  const badMode = home('sandbox_mode = "everything"\n');
  assert.throws(() => loadConfig({ cwd: badMode.cwd, overrides: [], env: badMode.env }), /sandbox_mode: 'everything' is not one of/);
  const unknown = home('modle = "typo"\n');
  const config = loadConfig({ cwd: unknown.cwd, overrides: [], env: unknown.env });
  assert.equal(config.warnings.length, 1);
  assert.match(config.warnings[0] ?? "", /unknown config key 'modle'/);
});

void test("AGENTS.md files are gathered from the project root down to cwd, root first", () => {
  const { env, cwd } = home("");
  const root = join(cwd, "repo");
  const sub = join(root, "pkg");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(sub);
  writeFileSync(join(root, "AGENTS.md"), "root rules");
  writeFileSync(join(sub, "AGENTS.md"), "package rules");
  assert.equal(loadConfig({ cwd: sub, overrides: [], env }).userInstructions, "root rules\n\npackage rules");
});
