import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../config/load-config.js";
import { saveTrustDecision, trustQuestionFor, TrustPrompt } from "./trust.js";
import { createTheme, setTheme, stripAnsi } from "./theme.js";

setTheme(createTheme(0));

function setup(): { root: string; home: string; repo: string; sub: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "trust-")));
  const home = join(root, "home");
  const repo = join(root, "repo");
  const sub = join(repo, "pkg", "app");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(sub, { recursive: true });
  return { root, home, repo, sub };
}

const configAt = (cwd: string, home: string) => loadConfig({ cwd, overrides: [], env: { CODEX_HOME: home } });

void test("asks only for a project with its own .codex folder and no decision yet, and saves the answer for the repository", async () => {
  const { root, home, repo, sub } = setup();
  try {
    assert.equal(trustQuestionFor(configAt(sub, home)), null); // no .codex anywhere
    mkdirSync(join(repo, "pkg", ".codex"));
    writeFileSync(join(repo, "pkg", ".codex", "config.toml"), 'model = "project-model"\n');
    const question = trustQuestionFor(configAt(sub, home));
    assert.deepEqual(question, { projectPath: repo, folders: [join(repo, "pkg", ".codex")] });
    assert.notEqual(configAt(sub, home).model, "project-model");

    writeFileSync(join(home, "config.toml"), "# mine\nmodel_reasoning_effort = \"high\"\n");
    const file = await saveTrustDecision(home, repo, "trusted");
    assert.equal(file, join(home, "config.toml"));
    assert.equal(readFileSync(file, "utf8"), `# mine\nmodel_reasoning_effort = "high"\n\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    const after = configAt(sub, home);
    assert.equal(after.projectTrustLevel, "trusted");
    assert.equal(after.model, "project-model");
    assert.equal(trustQuestionFor(after), null);

    await saveTrustDecision(home, repo, "untrusted");
    assert.equal(configAt(sub, home).projectTrustLevel, "untrusted");
    assert.equal(trustQuestionFor(configAt(sub, home)), null);
    assert.match(readFileSync(file, "utf8"), /^# mine\n/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("CODEX_HOME's own .codex folder is not a project's, and a missing config.toml is created", async () => {
  const { root, repo } = setup();
  try {
    const home = join(repo, ".codex");
    mkdirSync(home);
    assert.equal(trustQuestionFor(configAt(repo, home)), null);
    const fresh = join(root, "fresh-home");
    await saveTrustDecision(fresh, repo, "untrusted");
    assert.equal(readFileSync(join(fresh, "config.toml"), "utf8"), `[projects."${repo}"]\ntrust_level = "untrusted"\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("the prompt: text at a fixed width, keys to decide", () => {
  const decisions: (string | null)[] = [];
  const prompt = new TrustPrompt({ projectPath: "/src/app", folders: ["/src/app/.codex"] }, (d) => decisions.push(d));
  const lines = prompt.render(60).map(stripAnsi);
  assert.equal(lines[0], "Trust /src/app?");
  assert.ok(lines.includes("  /src/app/.codex"));
  assert.ok(lines.includes("› 1. Yes, trust this project and load its settings"));
  assert.ok(lines.includes("  2. No, ignore its settings"));
  for (const l of lines) assert.ok(l.length <= 60, l);
  prompt.handleInput("\u001b[B");
  assert.ok(prompt.render(60).map(stripAnsi).includes("› 2. No, ignore its settings"));
  prompt.handleInput("\r");
  prompt.handleInput("1");
  prompt.handleInput("n");
  prompt.handleInput("\u001b");
  assert.deepEqual(decisions, ["untrusted", "trusted", "untrusted", null]);
});
