/**
 * Rendered frames of the UI's cells and questions, compared with text snapshots in
 * test/fixtures/tui-cells/ (one file per frame, at the width in its name). A change to how a
 * cell looks shows up as a diff of that file; `UPDATE_SNAPSHOTS=1` writes them anew.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createTheme, stripAnsi } from "./parts/theme.js";
import { agentCell, commandCell, headerCell, markdownTheme, userCell, workedCell, type CellStyle } from "./cells.js";
import { compactedCell } from "./activity-cells.js";
import { decisionCell, type DecisionSubject } from "./decision-cells.js";
import { reviewCell } from "./review-cell.js";
import { helpLines } from "./help.js";
import { LiveTurn } from "./live-turn.js";
import { questionOverlay } from "./questions.js";
import { renderFileChange } from "./parts/diff-view.js";
import { loadMarkdown } from "./pi-tui.js";
import type { EventMsg } from "../protocol/events.js";

before(loadMarkdown);

const DIR = fileURLToPath(new URL("../../../test/fixtures/tui-cells/", import.meta.url));
const theme = createTheme(0);
const style: CellStyle = { theme, markdown: markdownTheme(theme), diff: (path, change, width) => renderFileChange(path, change, width, { cwd: "/repo", maxLines: 80 }) };

/** Compares the frame with its snapshot (trailing spaces would be padding: they are kept and fail). */
function snapshot(name: string, lines: string[]): void {
  const text = `${lines.map((l) => stripAnsi(l)).join("\n")}\n`;
  const file = `${DIR}${name}.txt`;
  if (process.env.UPDATE_SNAPSHOTS === "1" || !existsSync(file)) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(file, text);
  }
  assert.equal(text, readFileSync(file, "utf8"), `${name} differs from test/fixtures/tui-cells/${name}.txt`);
  for (const line of text.split("\n")) assert.doesNotMatch(line, / $/, `${name}: a padded row`);
}

void test("commands: output decoded while it runs (the tail), none at all, interrupted", () => {
  const lines: string[] = [];
  const live = new LiveTurn(style, false, (render) => lines.push(...render(60)));
  live.commandBegin("c1", ["bash", "-lc", "for i in $(seq 1 8); do echo tick-$i; done"], false);
  const out = Array.from({ length: 8 }, (_, i) => `tick-${i + 1}\n`).join("");
  // A multi-byte character split between two chunks comes out whole.
  live.commandOutput("c1", "stdout", Buffer.from(out + "café\n").subarray(0, out.length + 4).toString("base64"));
  live.commandOutput("c1", "stdout", Buffer.from("café\n").subarray(4).toString("base64"));
  snapshot("command-running-60", live.lines(60));
  snapshot("command-no-output-60", commandCell({ command: ["true"], output: "", exitCode: 0, duration: { secs: 0, nanos: 12_000_000 }, userShell: false }, style, 60));
  live.turnAborted();
  snapshot("command-interrupted-60", lines);
});

void test("decisions kept in the conversation", () => {
  const cmd: DecisionSubject = { kind: "command", command: ["bash", "-lc", "npm test"] };
  snapshot("decisions-60", [
    ...decisionCell(cmd, "approved", style, 60),
    ...decisionCell(cmd, "approved_for_session", style, 60),
    ...decisionCell(cmd, { approved_execpolicy_amendment: { proposed_execpolicy_amendment: ["npm", "test"] } }, style, 60),
    ...decisionCell(cmd, "abort", style, 60),
    ...decisionCell({ kind: "patch", files: ["src/a.ts"] }, "approved", style, 60),
    ...decisionCell({ kind: "patch", files: ["a", "b", "c"] }, "abort", style, 60),
    ...decisionCell({ kind: "mcp_tool", server: "docs", tool: "delete_page" }, "abort", style, 60),
    ...decisionCell({ kind: "command", command: ["bash", "-lc", `cat <<EOF > x\n${"long ".repeat(30)}\nEOF`] }, "approved", style, 60),
  ]);
});

void test("a sub-agent's question answered: the decision names it", () => {
  const cmd: DecisionSubject = { kind: "command", command: ["bash", "-lc", "npm test"] };
  snapshot("decisions-sub-agent-60", [
    ...decisionCell(cmd, "approved", style, 60, "Noether (explorer)"),
    ...decisionCell(cmd, "denied", style, 60, "Noether"),
    ...decisionCell({ kind: "patch", files: ["src/a.ts"] }, "approved", style, 60, "Noether"),
    ...decisionCell({ kind: "mcp_tool", server: "docs", tool: "delete_page" }, "abort", style, 60, "Noether"),
  ]);
});

void test("answers as Markdown: task lists, code without fences; a user message without padding", () => {
  const answer = "Steps:\n\n- [ ] write the test\n- [x] read the code\n\n```ts\nconst x = 1;\n```\n\nDone.";
  snapshot("answer-markdown-60", agentCell(answer, style, 60));
  snapshot("user-message-60", userCell("a message long enough to wrap on a narrow terminal, twice over at least", style, 60));
});

void test("the header says what the folder's trust means; a turn's end; a compaction with the status line's figures", () => {
  const header = { version: "1.0.0", model: "gpt-5.5", effort: null, cwd: "/repo", approval: "on-request" as const, sandbox: { type: "workspace-write" as const, writable_roots: [], network_access: false, exclude_tmpdir_env_var: false, exclude_slash_tmp: false }, sessionId: "s", trust: "trusted folder: works inside it without asking" };
  snapshot("header-trusted-60", headerCell(header, style, 60));
  snapshot("worked-60", [...workedCell(500, style, 60), ...workedCell(75_000, style, 60)]);
  const total = { input_tokens: 40_000, cached_input_tokens: 0, output_tokens: 2_000, reasoning_output_tokens: 0, total_tokens: 42_000 };
  snapshot("compacted-60", compactedCell({ total_token_usage: total, last_token_usage: { ...total, total_tokens: 30_000 }, model_context_window: 100_000 }, style, 60));
});

void test("a review's findings with their bodies drawn as Markdown", () => {
  snapshot(
    "review-60",
    reviewCell(
      {
        overall_correctness: "patch is incorrect",
        overall_explanation: "One **real** bug.",
        overall_confidence_score: 0.8,
        findings: [{ title: "Off by one in `range`", body: "The loop stops early:\n\n- `i < n - 1` skips the last item\n- use `i < n`", confidence_score: 0.9, priority: 1, code_location: { absolute_file_path: "/nonexistent/a.ts", line_range: { start: 3, end: 4 } } }],
      },
      style,
      60,
    ),
  );
});

void test("a steered message waits under the streaming answer", () => {
  const live = new LiveTurn(style, false, () => undefined);
  live.delta("The answer so far, still strea");
  live.userMessage("also consider this");
  snapshot("steered-60", live.lines(60));
});

void test("questions at 60x20: a 40-line patch keeps its title, file and answers and scrolls its diff; a command; the keys", () => {
  const content = Array.from({ length: 40 }, (_, i) => `line ${i + 1}: some content for the new file`).join("\n");
  const patch: EventMsg = { type: "apply_patch_approval_request", call_id: "p", turn_id: "t", changes: { "/repo/src/components/a-rather-long-directory-name/new-module-file.ts": { type: "add", content } }, reason: "add the module" };
  const ctx = { theme, style, cwd: "/repo", submit: () => "", close: () => undefined, decided: () => undefined };
  const overlay = questionOverlay("q1", patch as Extract<EventMsg, { type: "apply_patch_approval_request" }>, ctx);
  snapshot("patch-question-60x18", overlay.render(60, 18));
  overlay.handleInput("\x1b[6~");
  snapshot("patch-question-60x18-page-down", overlay.render(60, 18));
  const command: EventMsg = { type: "exec_approval_request", call_id: "c", turn_id: "t", command: ["bash", "-lc", "npm run build"], cwd: "/repo", reason: "build it", proposed_execpolicy_amendment: ["npm", "run", "build"], parsed_cmd: [] };
  snapshot("command-question-60", questionOverlay("q2", command as Extract<EventMsg, { type: "exec_approval_request" }>, ctx).render(60, 18));
  snapshot("help-60", helpLines(theme, 60));
});
