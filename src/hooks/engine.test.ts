import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import type { HookRunSummary } from "../protocol/hook-events.js";
import { SessionHooks, type HookTurn } from "./session-hooks.js";
import { HookRegistry } from "./registry.js";

interface Rig {
  dir: string;
  hooks: SessionHooks;
  events: EventMsg[];
  turn: HookTurn;
}

/** A session's hooks from `events` (hooks.json's `hooks` value), trust bypassed, recording what they emit. */
function rig(events: Record<string, unknown>): Rig {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-engine-"));
  writeFileSync(join(dir, "hooks.json"), JSON.stringify({ hooks: events }));
  const registry = new HookRegistry({
    enabled: true,
    sources: [{ kind: "user", folder: dir, configFile: join(dir, "config.toml"), table: undefined }],
    userConfigFile: join(dir, "config.toml"),
    stateOverrides: [],
    bypassTrust: true,
  });
  const emitted: EventMsg[] = [];
  const hooks = new SessionHooks(registry, { sessionId: "s-1", transcriptPath: () => null }, { env: { PATH: process.env.PATH ?? "" }, shell: "/bin/sh" });
  const turn: HookTurn = { turnId: "t-1", cwd: dir, model: "gpt-5.5", approvalPolicy: "never", emit: (msg) => emitted.push(msg) };
  return { dir, hooks, events: emitted, turn };
}

const cmd = (command: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: "command", command, ...extra });
const call = { toolName: "Bash", toolInput: { command: "make" }, toolUseId: "call_1" };

function completed(events: EventMsg[]): HookRunSummary[] {
  return events.flatMap((e) => (e.type === "hook_completed" ? [e.run] : []));
}

void test("matching hooks run at once: two that each wait for the other both finish", async () => {
  // Run one after the other, the first would wait for a file the second never got to write.
  const waitFor = (mine: string, theirs: string): string =>
    `cat >/dev/null; touch ${mine}; i=0; while [ ! -f ${theirs} ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; test -f ${theirs}`;
  const { hooks, events, turn } = rig({ PreToolUse: [{ hooks: [cmd(waitFor("a", "b"))] }, { matcher: "Bash", hooks: [cmd(waitFor("b", "a"))] }] });
  const outcome = await hooks.preToolUse(turn, call);
  assert.equal(outcome.blockedMessage, null);
  assert.deepEqual(completed(events).map((r) => r.status), ["completed", "completed"]);
  // Both announced before either finished, each named after its place and the call.
  assert.deepEqual(events.map((e) => e.type), ["hook_started", "hook_started", "hook_completed", "hook_completed"]);
  assert.match(completed(events)[0]?.id ?? "", /^pre_tool_use:0:.*hooks\.json:call_1$/);
});

void test("any deny wins over an allow that rewrites the input; the first deny by order gives the reason", async () => {
  const say = (value: unknown): string => `cat >/dev/null; echo '${JSON.stringify(value)}'`;
  const { hooks, turn } = rig({
    PreToolUse: [
      { hooks: [cmd(say({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "make -n" } } }))] },
      { hooks: [cmd("cat >/dev/null; echo 'first reason' >&2; exit 2"), cmd(say({ decision: "block", reason: "second reason" }))] },
    ],
  });
  const outcome = await hooks.preToolUse(turn, call);
  assert.equal(outcome.blockedMessage, "Command blocked by PreToolUse hook: first reason. Command: make");
  assert.equal(outcome.updatedInput, undefined);
  const other = await hooks.preToolUse(turn, { toolName: "view_image", toolInput: { path: "a.png" }, toolUseId: "call_2" });
  assert.equal(other.blockedMessage, "Tool call blocked by PreToolUse hook: first reason. Tool: view_image");
});

void test("a hook past its timeout is killed with everything it started, and decides nothing", async () => {
  const { dir, hooks, events, turn } = rig({ PreToolUse: [{ hooks: [cmd("cat >/dev/null; sleep 30 & echo $! > child.pid; wait", { timeout: 1 })] }] });
  const outcome = await hooks.preToolUse(turn, call);
  assert.equal(outcome.blockedMessage, null);
  assert.deepEqual(completed(events)[0]?.entries, [{ kind: "error", text: "hook timed out after 1s" }]);
  const pid = Number(readFileSync(join(dir, "child.pid"), "utf8"));
  for (let i = 0; i < 100 && running(pid); i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(running(pid), false, "the hook's background child outlived the timeout");
});

/** Whether `pid` runs (a killed process nobody has reaped yet, a zombie, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

void test("a hook runs in the turn's directory, reads the event on stdin, and may not print more than 256 KiB", async () => {
  const { dir, hooks, events, turn } = rig({
    UserPromptSubmit: [{ hooks: [cmd("cat > input.json; pwd > cwd.txt"), cmd("head -c 300000 /dev/zero | tr '\\0' x")] }],
  });
  const outcome = await hooks.userPromptSubmit(turn, "hello");
  assert.deepEqual([outcome.blocked, outcome.contexts], [false, []]);
  assert.equal(readFileSync(join(dir, "cwd.txt"), "utf8").trim(), dir);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "input.json"), "utf8")), {
    session_id: "s-1",
    turn_id: "t-1",
    transcript_path: null,
    cwd: dir,
    hook_event_name: "UserPromptSubmit",
    model: "gpt-5.5",
    permission_mode: "bypassPermissions",
    prompt: "hello",
  });
  assert.deepEqual(completed(events).map((r) => [r.status, r.entries[0]?.text]), [["completed", undefined], ["failed", "hook wrote more than 256 KiB to stdout"]]);
});

void test("an async hook does not hold the event up; its result is reported when it comes", async () => {
  const { dir, hooks, events, turn } = rig({ Stop: [{ hooks: [cmd("cat >/dev/null; while [ ! -f go ]; do sleep 0.05; done", { async: true })] }] });
  const outcome = await hooks.stop(turn, { stopHookActive: false, lastAssistantMessage: "done" });
  assert.deepEqual(outcome, { stop: false, continuation: [] });
  assert.deepEqual(events.map((e) => e.type), ["hook_started"]);
  writeFileSync(join(dir, "go"), "");
  for (let i = 0; i < 200 && completed(events).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  assert.deepEqual(completed(events).map((r) => [r.execution_mode, r.status]), [["async", "completed"]]);
});

void test("Stop: every blocking hook's reason comes back, with its run; continue:false ends the turn", async () => {
  const { hooks, turn } = rig({
    Stop: [{ hooks: [cmd("cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"A\"}'"), cmd("cat >/dev/null; echo B >&2; exit 2")] }],
  });
  const outcome = await hooks.stop(turn, { stopHookActive: false, lastAssistantMessage: "x" });
  assert.deepEqual(outcome.continuation.map((f) => [f.text, f.runId.replace(/:\/.*$/, "")]), [["A", "stop:0"], ["B", "stop:1"]]);
  const stopper = rig({ Stop: [{ hooks: [cmd("cat >/dev/null; echo '{\"continue\":false}'"), cmd("cat >/dev/null; echo B >&2; exit 2")] }] });
  assert.deepEqual(await stopper.hooks.stop(stopper.turn, { stopHookActive: false, lastAssistantMessage: "x" }), { stop: true, continuation: [] });
  assert.equal(existsSync(join(stopper.dir, "nothing")), false);
});
