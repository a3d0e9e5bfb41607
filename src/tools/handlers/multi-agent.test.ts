import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTools } from "../registry.js";
import type { DispatchContext } from "../router.js";
import { AgentNotFoundError, type AgentControl, type SpawnRequest } from "../agent-control.js";
import type { AgentStatus } from "../../protocol/collab.js";
import type { EventMsg } from "../../protocol/events.js";
import type { ResponseItem } from "../../protocol/items.js";
import { modelInfoFor } from "../../model/catalog.js";
import { TurnDiffTracker } from "../../patch/turn-diff.js";
import { testTurn } from "../../../test/support/turn-context.js";

const CHILD = "01a21798-0a88-73a1-bcfc-8d3272248fb4";

/** A control that records what the tools asked and answers from a script. */
class FakeControl implements AgentControl {
  readonly threadId = "01a21798-09eb-7d42-9faf-405c3417c48b";
  waits: number[] = [];
  spawned: SpawnRequest[] = [];
  spawnFails: string | null = null;
  spawnSettings(request: SpawnRequest): { model: string; reasoningEffort: string } {
    return { model: request.model ?? "gpt-5.5", reasoningEffort: request.reasoningEffort ?? "medium" };
  }
  spawn(request: SpawnRequest): Promise<{ thread_id: string; agent_nickname: string; agent_role: string | null; model: string; reasoningEffort: string }> {
    if (this.spawnFails !== null) return Promise.reject(new Error(this.spawnFails));
    this.spawned.push(request);
    return Promise.resolve({ thread_id: CHILD, agent_nickname: "Noether", agent_role: request.role, model: "gpt-5.5", reasoningEffort: "medium" });
  }
  send(target: string): Promise<{ submissionId: string; status: AgentStatus }> {
    if (target !== CHILD) return Promise.reject(new AgentNotFoundError(target));
    return Promise.resolve({ submissionId: "1", status: "running" });
  }
  resume(target: string): Promise<AgentStatus> {
    return target === CHILD ? Promise.resolve("pending_init") : Promise.reject(new AgentNotFoundError(target));
  }
  wait(targets: readonly string[], timeoutMs: number): Promise<Map<string, AgentStatus> | null> {
    this.waits.push(timeoutMs);
    if (timeoutMs === 10_000) return Promise.resolve(null);
    return Promise.resolve(new Map(targets.map((id) => [id, id === CHILD ? { completed: "done" } : "not_found"])));
  }
  close(target: string): Promise<AgentStatus> {
    return target === CHILD ? Promise.resolve({ completed: "done" }) : Promise.reject(new AgentNotFoundError(target));
  }
  ref(threadId: string): { thread_id: string; agent_nickname: string | null; agent_role: string | null } {
    return { thread_id: threadId, agent_nickname: threadId === CHILD ? "Noether" : null, agent_role: null };
  }
}

function setup(): { control: FakeControl; events: EventMsg[]; call(name: string, args: unknown): Promise<string> } {
  const control = new FakeControl();
  const events: EventMsg[] = [];
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-collab-"));
  const ctx: DispatchContext = {
    signal: new AbortController().signal,
    emit: (msg) => events.push(msg),
    turnDiff: new TurnDiffTracker(cwd),
    turn: testTurn(cwd, { services: { agents: control } }),
  };
  const { router } = buildTools(modelInfoFor("gpt-5.5"), undefined, { multiAgent: { roles: [], models: [] } });
  let n = 0;
  return {
    control,
    events,
    async call(name, args) {
      const item = await router.dispatch({ type: "function_call", name, namespace: "multi_agent_v1", arguments: JSON.stringify(args), call_id: `c${n++}` }, ctx);
      return String((item as Extract<ResponseItem, { type: "function_call_output" }>).output);
    },
  };
}

void test("wait_agent: 30 s by default, at least 10 s, at most an hour; zero or less is refused", async () => {
  const { control, call } = setup();
  await call("wait_agent", { targets: [CHILD] });
  await call("wait_agent", { targets: [CHILD], timeout_ms: 1 });
  await call("wait_agent", { targets: [CHILD], timeout_ms: 90_000 });
  await call("wait_agent", { targets: [CHILD], timeout_ms: 5_000_000_000 });
  assert.deepEqual(control.waits, [30_000, 10_000, 90_000, 3_600_000]);
  assert.equal(await call("wait_agent", { targets: [CHILD], timeout_ms: 0 }), "timeout_ms must be greater than zero");
  assert.equal(await call("wait_agent", { targets: [CHILD], timeout_ms: -5 }), "timeout_ms must be greater than zero");
  assert.equal(control.waits.length, 4);
});

void test("wait_agent: a timed-out wait has an empty status; a finished one lists the agents that finished", async () => {
  const { events, call } = setup();
  assert.equal(await call("wait_agent", { targets: [CHILD], timeout_ms: 1 }), '{"status":{},"timed_out":true}');
  assert.deepEqual(events.at(-1), { type: "collab_waiting_end", call_id: "c0", sender_thread_id: new FakeControl().threadId, agent_statuses: [], statuses: {} });
  assert.equal(await call("wait_agent", { targets: [CHILD] }), `{"status":{"${CHILD}":{"completed":"done"}},"timed_out":false}`);
  assert.deepEqual((events.at(-1) as Extract<EventMsg, { type: "collab_waiting_end" }>).agent_statuses, [
    { thread_id: CHILD, agent_nickname: "Noether", agent_role: null, status: { completed: "done" } },
  ]);
});

void test("spawn_agent: begin and end events around the spawn, the reference's answer, and a failed end when it cannot", async () => {
  const { control, events, call } = setup();
  assert.equal(await call("spawn_agent", { message: "look around", agent_type: "explorer", fork_context: true }), `{"agent_id":"${CHILD}","nickname":"Noether"}`);
  assert.deepEqual(control.spawned, [{ input: [{ type: "text", text: "look around" }], forkContext: true, model: null, reasoningEffort: null, role: "explorer" }]);
  assert.deepEqual(
    events.map((e) => e.type),
    ["collab_agent_spawn_begin", "collab_agent_spawn_end"],
  );
  const end = events[1] as Extract<EventMsg, { type: "collab_agent_spawn_end" }>;
  assert.equal(end.new_thread_id, CHILD);
  assert.equal(end.new_agent_role, "explorer");
  assert.equal(end.status, "pending_init");
  control.spawnFails = "collab spawn failed: agent thread limit reached";
  assert.equal(await call("spawn_agent", { message: "one more" }), "collab spawn failed: agent thread limit reached");
  const failed = events.at(-1) as Extract<EventMsg, { type: "collab_agent_spawn_end" }>;
  assert.equal(failed.new_thread_id, null);
});

void test("structured items: text, images and mentions become the agent's input; the events show their text", async () => {
  const { control, events, call } = setup();
  await call("spawn_agent", {
    items: [
      { type: "text", text: "compare these" },
      { type: "local_image", path: "shot.png" },
      { type: "skill", name: "release-notes", path: "/skills/release-notes/SKILL.md" },
      { type: "mention", name: "docs", path: "app://docs" },
    ],
  });
  assert.deepEqual(control.spawned[0]?.input, [
    { type: "text", text: "compare these" },
    { type: "local_image", path: "shot.png" },
    { type: "text", text: "$release-notes" },
    { type: "text", text: "[docs](app://docs)" },
  ]);
  assert.equal((events[0] as Extract<EventMsg, { type: "collab_agent_spawn_begin" }>).prompt, "compare these\n$release-notes\n[docs](app://docs)");
  assert.equal(await call("spawn_agent", { items: [{ type: "audio", audio_url: "data:" }] }), "items[0]: input items of type `audio` are not supported (use text, image, local_image, skill or mention)");
  assert.equal(await call("spawn_agent", { items: [{ type: "text" }] }), "items[0]: a text item needs `text`");
});

void test("an unknown agent ends the call's events with not_found and tells the model in the reference's words", async () => {
  const { events, call } = setup();
  const other = "01a21798-0000-7000-8000-000000000000";
  assert.equal(await call("send_input", { target: other, message: "hi" }), `agent with id ${other} not found`);
  assert.equal(await call("close_agent", { target: other }), `agent with id ${other} not found`);
  assert.equal(await call("resume_agent", { id: other }), `agent with id ${other} not found`);
  assert.deepEqual(
    events.filter((e) => e.type.endsWith("_end")).map((e) => [e.type, "status" in e ? e.status : null]),
    [
      ["collab_agent_interaction_end", "not_found"],
      ["collab_close_end", "not_found"],
      ["collab_resume_end", "not_found"],
    ],
  );
  assert.equal(await call("send_input", { target: CHILD, message: "more", interrupt: true }), '{"submission_id":"1"}');
  assert.equal(await call("close_agent", { target: CHILD }), `{"previous_status":{"completed":"done"}}`);
  assert.equal(await call("resume_agent", { id: CHILD }), '{"status":"pending_init"}');
});
