import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadAgentsSettings } from "./agent-roles.js";

function homes(): { home: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-roles-"));
  const home = join(root, "home");
  const project = join(root, "project", ".codex");
  mkdirSync(join(home, "agents"), { recursive: true });
  mkdirSync(join(project, "agents"), { recursive: true });
  return { home, project };
}

void test("without settings: six open sub-agents, depth one, and the three built-in roles", () => {
  const warnings: string[] = [];
  const { home } = homes();
  const settings = loadAgentsSettings({ table: {}, codexHome: home, trustedDotCodex: [], warnings });
  assert.equal(settings.maxThreads, 6);
  assert.equal(settings.maxDepth, 1);
  assert.deepEqual(settings.roles.map((r) => [r.name, r.builtin]), [["default", true], ["explorer", true], ["worker", true]]);
  assert.deepEqual(warnings, []);
});

void test("roles from $CODEX_HOME/agents, [agents.<name>] and a trusted project, later sources replacing earlier ones", () => {
  const warnings: string[] = [];
  const { home, project } = homes();
  writeFileSync(join(home, "agents", "reviewer.toml"), 'description = "mine"\nmodel = "gpt-5.4"\nmodel_reasoning_effort = "high"\ndeveloper_instructions = "Be picky."\nnickname_candidates = ["Ada"]\n');
  writeFileSync(join(home, "agents", "tester.toml"), 'description = "user tester"\n');
  writeFileSync(join(project, "agents", "tester.toml"), 'name = "tester"\ndescription = "project tester"\nsandbox_mode = "read-only"\n');
  writeFileSync(join(home, "explain.toml"), 'developer_instructions = "Explain."\n');
  const table = { agents: { max_threads: 3, max_depth: 2, explainer: { description: "from config.toml", config_file: join(home, "explain.toml"), nickname_candidates: ["Eve"] } } };
  const settings = loadAgentsSettings({ table, codexHome: home, trustedDotCodex: [project], warnings });
  assert.equal(settings.maxThreads, 3);
  assert.equal(settings.maxDepth, 2);
  const role = (name: string) => settings.roles.find((r) => r.name === name);
  assert.deepEqual(role("reviewer")?.settings, { model: "gpt-5.4", reasoningEffort: "high", reasoningSummary: null, developerInstructions: "Be picky.", sandboxMode: null });
  assert.deepEqual(role("reviewer")?.nicknameCandidates, ["Ada"]);
  assert.equal(role("tester")?.description, "project tester");
  assert.equal(role("tester")?.settings.sandboxMode, "read-only");
  assert.equal(role("explainer")?.description, "from config.toml");
  assert.equal(role("explainer")?.settings.developerInstructions, "Explain.");
  assert.deepEqual(role("explainer")?.nicknameCandidates, ["Eve"]);
  assert.deepEqual(warnings, []);
});

void test("a role file that cannot be used is left out with a warning naming the file and the problem; the others load", () => {
  const warnings: string[] = [];
  const { home } = homes();
  writeFileSync(join(home, "agents", "broken.toml"), 'description = "unterminated\n');
  writeFileSync(join(home, "agents", "typed.toml"), 'model_reasoning_effort = "extreme"\n');
  writeFileSync(join(home, "agents", "bad name.toml"), 'description = "x"\n');
  writeFileSync(join(home, "agents", "extra.toml"), 'description = "fine"\napproval_policy = "never"\nmodle = "x"\n');
  const settings = loadAgentsSettings({ table: {}, codexHome: home, trustedDotCodex: [], warnings });
  assert.deepEqual(settings.roles.map((r) => r.name).sort(), ["default", "explorer", "extra", "worker"]);
  assert.equal(warnings.length, 5, warnings.join("\n"));
  assert.match(warnings.join("\n"), /broken\.toml:1:\d+/);
  assert.match(warnings.join("\n"), /typed\.toml:1: model_reasoning_effort: 'extreme' is not one of/);
  assert.match(warnings.join("\n"), /bad name\.toml.*expected a role name/);
  assert.match(warnings.join("\n"), /extra\.toml:2: 'approval_policy' does not apply to a sub-agent's role/);
  assert.match(warnings.join("\n"), /extra\.toml:3: unknown config key 'modle'/);
});
