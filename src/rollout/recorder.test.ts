import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userText } from "../protocol/items.js";
import { RolloutRecorder } from "./recorder.js";

const ID = "01a20039-0605-7f82-bb57-0384ad2af383";

function newRecorder(codexHome: string, onError?: (m: string) => void): RolloutRecorder {
  const recorder = RolloutRecorder.create({
    codexHome,
    threadId: ID,
    cwd: "/nowhere/at/all",
    originator: "codex_exec",
    cliVersion: "0.0.0",
    source: "exec",
    modelProvider: "openai",
    baseInstructions: "base",
  });
  if (onError) recorder.reportErrorsTo(onError);
  return recorder;
}

const types = (path: string): string[] =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => {
      const line = JSON.parse(l) as { type: string; payload: { type?: string } };
      return line.type === "event_msg" ? `event:${line.payload.type}` : line.type;
    });

void test("a new thread's file appears at persist(), session_meta first, then what waited, in order", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-rec-"));
  const r = newRecorder(home);
  r.recordItems([userText("context")]);
  r.recordEvent({ type: "agent_message_delta", delta: "not kept" });
  r.recordEvent({ type: "warning", message: "not kept either" });
  assert.equal(existsSync(r.path), false);
  r.persist();
  r.persist();
  r.recordEvent({ type: "task_started", turn_id: "turn-1", model_context_window: 1 });
  r.recordItems([userText("hi"), userText("there")]);
  assert.deepEqual(types(r.path), ["session_meta", "response_item", "event:task_started", "response_item", "response_item"]);
  const lines = readFileSync(r.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { payload: Record<string, unknown> });
  assert.deepEqual(lines[0]?.payload.base_instructions, { text: "base" });
  assert.equal("git" in (lines[0]?.payload ?? {}), false);
  assert.equal(lines[2]?.payload.turn_id, "turn-1");
  assert.match(r.path, new RegExp(`sessions/\\d{4}/\\d{2}/\\d{2}/rollout-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-${ID}\\.jsonl$`));
  r.close();
});

void test("appending cuts a torn last line off, and gives a complete one its missing newline", () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-rec-"));
  const good = '{"timestamp":"t","type":"response_item","payload":{}}\n';
  const torn = join(dir, "torn.jsonl");
  writeFileSync(torn, `${good}{"timestamp":"t","ty`);
  const a = RolloutRecorder.append(torn);
  a.recordItems([userText("next")]);
  a.close();
  const tornText = readFileSync(torn, "utf8");
  assert.ok(tornText.startsWith(good));
  assert.deepEqual(types(torn), ["response_item", "response_item"]);

  const unterminated = join(dir, "unterminated.jsonl");
  writeFileSync(unterminated, good.trimEnd());
  const b = RolloutRecorder.append(unterminated);
  b.recordItems([userText("next")]);
  b.close();
  assert.deepEqual(types(unterminated), ["response_item", "response_item"]);
});

void test("a write failure is reported once and recording stops; the caller carries on", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-rec-"));
  writeFileSync(join(home, "sessions"), "a file where the directory should be");
  const errors: string[] = [];
  const r = newRecorder(home, (m) => errors.push(m));
  r.recordItems([userText("x")]);
  r.persist();
  r.recordItems([userText("y")]);
  r.persist();
  assert.equal(errors.length, 1);
  assert.match(errors[0] ?? "", /could not write the session file/);
});

void test("a compaction is written as a compacted line, with the replacement history when there is one", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-rec-"));
  const r = newRecorder(home);
  r.persist();
  r.recordCompaction("summary only");
  r.recordCompaction("with history", [userText("kept")]);
  const lines = readFileSync(r.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as { type: string; payload: unknown });
  assert.deepEqual(
    lines.filter((l) => l.type === "compacted").map((l) => l.payload),
    [{ message: "summary only" }, { message: "with history", replacement_history: [userText("kept")] }],
  );
  r.close();
});
