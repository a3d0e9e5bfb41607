import { before, test } from "node:test";
import assert from "node:assert/strict";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { agentCell, commandCell, displayCommand, headerCell, markdownTheme, noticeCell, patchCell, planCell, usageLine, userCell, type CellStyle } from "./cells.js";
import { loadMarkdown } from "./pi-tui.js";

// The runner loads the Markdown component after the first frame; these tests render with it.
before(loadMarkdown);

const theme = createTheme(0);
const style: CellStyle = { theme, markdown: markdownTheme(theme), diff: (path, change) => [`${path} ${change.type}`] };
const plain = (lines: string[]): string[] => lines.map((l) => stripAnsi(l).trimEnd());

void test("the header names the version, model and effort, directory and policies", () => {
  const lines = plain(headerCell({ version: "1.2.3", model: "gpt-5.5", effort: "high", cwd: "/work/repo", approval: "on-request", sandbox: { type: "read-only" }, sessionId: "x" }, style, 60));
  assert.match(lines.join("\n"), /codex-ts v1\.2\.3[\s\S]*model:\s+gpt-5\.5 high[\s\S]*directory: \/work\/repo[\s\S]*approval:\s+on-request\s+sandbox: read-only/);
  assert.ok(lines.every((l) => l.length <= 60));
});

void test("a user message is marked and wrapped to the width", () => {
  const lines = plain(userCell("one two three four five six seven", style, 16));
  assert.equal(lines[0], "› one two three");
  assert.ok(lines.slice(1, -1).every((l) => l.startsWith("  ")));
  assert.equal(lines.at(-1), "");
});

void test("an agent message is markdown with a bullet", () => {
  const lines = plain(agentCell("Some **bold** text\n\n- a\n- b", style, 40));
  assert.equal(lines[0], "• Some bold text");
  assert.ok(lines.some((l) => /^\s+- a$/.test(l)));
});

void test("a command shows what ran, its output tail, exit code and duration", () => {
  const lines = plain(commandCell({ command: ["bash", "-lc", "make test"], output: "1\n2\n3\n4\n5\n6\n7\n", exitCode: 2, duration: { secs: 1, nanos: 500_000_000 }, userShell: false }, style, 50, 3));
  assert.deepEqual(lines, ["• Ran make test", "  │ … 4 earlier lines", "  │ 5", "  │ 6", "  │ 7", "  └ ✗ exit 2 · 1.5s", ""]);
  const running = plain(commandCell({ command: ["ls", "a b"], output: "", exitCode: null, duration: null, userShell: true }, style, 50));
  assert.deepEqual(running, ["• Running (you) ls 'a b'", ""]);
  assert.equal(displayCommand(["git", "status"]), "git status");
});

void test("a plan is a checklist", () => {
  const lines = plain(planCell("why", [{ step: "read", status: "completed" }, { step: "write", status: "in_progress" }, { step: "test", status: "pending" }], style, 40));
  assert.deepEqual(lines, ["• Updated plan", "  why", "  ✔ read", "  ◐ write", "  □ test", ""]);
});

void test("patches list each file through the diff renderer; notices are marked by kind", () => {
  const lines = plain(patchCell({ "/r/a.ts": { type: "add", content: "x" } }, "applied", style, 40));
  assert.deepEqual(lines, ["• Edited 1 file", "  /r/a.ts add", ""]);
  assert.deepEqual(plain(noticeCell("warning", "careful", style, 40)), ["⚠ careful", ""]);
  assert.deepEqual(plain(noticeCell("error", "broken", style, 40)), ["■ broken", ""]);
});

void test("the exit summary's usage line", () => {
  assert.equal(
    usageLine({ input_tokens: 1200, cached_input_tokens: 200, output_tokens: 30, reasoning_output_tokens: 5, total_tokens: 1230 }),
    "Token usage: total=1,230 input=1,000 (+ 200 cached) output=30 (reasoning 5)",
  );
});

void test("command output is shown as a terminal would: the last rewrite of a line, no escapes, tabs expanded", () => {
  const lines = plain(commandCell({ command: ["build"], output: "10%\r50%\r100%\n\x1b[31mred\x1b[0m\tdone\x1b[2K\n", exitCode: 0, duration: null, userShell: false }, style, 50));
  assert.deepEqual(lines.slice(1, 3), ["  │ 100%", "  │ red    done"]);
});
