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

void test("asks about every folder without a decision (not when the permissions were chosen and no settings wait), and saves the answer for the repository", async () => {
  const { root, home, repo, sub } = setup();
  try {
    assert.deepEqual(trustQuestionFor(configAt(sub, home), false), { projectPath: repo, folders: [], repository: true });
    assert.equal(trustQuestionFor(configAt(sub, home), true), null);
    assert.equal(configAt(sub, home).sandboxMode, "read-only");
    mkdirSync(join(repo, "pkg", ".codex"));
    writeFileSync(join(repo, "pkg", ".codex", "config.toml"), 'model = "project-model"\n');
    const question = trustQuestionFor(configAt(sub, home), true);
    assert.deepEqual(question, { projectPath: repo, folders: [join(repo, "pkg", ".codex")], repository: true });
    assert.notEqual(configAt(sub, home).model, "project-model");

    writeFileSync(join(home, "config.toml"), "# mine\nmodel_reasoning_effort = \"high\"\n");
    const file = await saveTrustDecision(home, repo, "trusted");
    assert.equal(file, join(home, "config.toml"));
    assert.equal(readFileSync(file, "utf8"), `# mine\nmodel_reasoning_effort = "high"\n\n[projects."${repo}"]\ntrust_level = "trusted"\n`);
    const after = configAt(sub, home);
    assert.equal(after.projectTrustLevel, "trusted");
    assert.equal(after.model, "project-model");
    // As in the reference: a trusted folder runs in its workspace, asking on request.
    assert.equal(after.sandboxMode, "workspace-write");
    assert.equal(after.approvalPolicy, "on-request");
    assert.equal(trustQuestionFor(after, false), null);

    await saveTrustDecision(home, repo, "untrusted");
    const refused = configAt(sub, home);
    assert.equal(refused.projectTrustLevel, "untrusted");
    assert.equal(refused.sandboxMode, "workspace-write");
    assert.equal(refused.approvalPolicy, "untrusted");
    assert.equal(trustQuestionFor(refused, false), null);
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
    assert.equal(trustQuestionFor(configAt(repo, home), true), null);
    const fresh = join(root, "fresh-home");
    await saveTrustDecision(fresh, repo, "untrusted");
    assert.equal(readFileSync(join(fresh, "config.toml"), "utf8"), `[projects."${repo}"]\ntrust_level = "untrusted"\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test("the prompt: text at a fixed width, keys to decide", () => {
  const decisions: (string | null)[] = [];
  const prompt = new TrustPrompt({ projectPath: "/src/app", folders: ["/src/app/.codex"], repository: true }, (d) => decisions.push(d));
  const lines = prompt.render(60).map(stripAnsi);
  assert.equal(lines[0], "Trust /src/app?");
  assert.ok(lines.includes("  /src/app/.codex"));
  assert.ok(lines.includes("› 1. Yes, trust this folder"));
  assert.ok(lines.some((l) => l.startsWith("  2. No, ask before anything")));
  assert.doesNotMatch(lines.join("\n"), /Codex|not a git repository/);
  for (const l of lines) assert.ok(l.length <= 60, l);
  prompt.handleInput("\u001b[B");
  assert.ok(prompt.render(60).map(stripAnsi).some((l) => l.startsWith("› 2. No, ask before anything")));
  prompt.handleInput("\r");
  prompt.handleInput("1");
  prompt.handleInput("n");
  prompt.handleInput("\u001b");
  assert.deepEqual(decisions, ["untrusted", "trusted", "untrusted", null]);
});

void test("a folder that is not a git repository starts on \"no\" and says why", () => {
  const prompt = new TrustPrompt({ projectPath: "/tmp/x", folders: [], repository: false }, () => undefined);
  const lines = prompt.render(60).map(stripAnsi);
  assert.match(lines.join("\n"), /not a git repository/);
  assert.ok(lines.some((l) => l.startsWith("› 2. No")));
});
