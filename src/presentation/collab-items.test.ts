import { test } from "node:test";
import assert from "node:assert/strict";
import type { CollabEventMsg } from "../protocol/collab.js";
import { CollabItemMapper } from "./collab-items.js";

const P = "01a21734-942b-73e3-b6f1-d998a9212d4f";
const C = "01a21734-94da-7f62-85b3-fc7a5b358fb7";
const D = "01a21734-9500-7f62-85b3-fc7a5b358fb8";

function mapper(): { map(msg: CollabEventMsg): unknown[] } {
  let n = 0;
  const inner = new CollabItemMapper(() => `item_${n++}`);
  return { map: (msg) => inner.map(msg) };
}

void test("a spawn opens an item and completes it with the new agent's state; a failed spawn has no receiver", () => {
  const m = mapper();
  const base = { call_id: "c1", sender_thread_id: P, prompt: "look", model: "gpt-5.5", reasoning_effort: "medium" };
  assert.deepEqual(m.map({ type: "collab_agent_spawn_begin", ...base }), [
    { type: "item.started", item: { id: "item_0", type: "collab_tool_call", tool: "spawn_agent", sender_thread_id: P, receiver_thread_ids: [], prompt: "look", agents_states: {}, status: "in_progress" } },
  ]);
  const end = { type: "collab_agent_spawn_end" as const, ...base, new_agent_nickname: "Ada", new_agent_role: null, status: "pending_init" as const };
  assert.deepEqual(m.map({ ...end, new_thread_id: C }), [
    {
      type: "item.completed",
      item: { id: "item_0", type: "collab_tool_call", tool: "spawn_agent", sender_thread_id: P, receiver_thread_ids: [C], prompt: "look", agents_states: { [C]: { status: "pending_init", message: null } }, status: "completed" },
    },
  ]);
  m.map({ type: "collab_agent_spawn_begin", ...base, call_id: "c2" });
  const failed = m.map({ ...end, call_id: "c2", new_thread_id: null, status: "not_found" })[0] as { item: Record<string, unknown> };
  assert.deepEqual([failed.item.id, failed.item.receiver_thread_ids, failed.item.agents_states, failed.item.status], ["item_1", [], {}, "failed"]);
});

void test("a wait lists the agents that finished (failed when one errored or is unknown); a timed-out wait has none", () => {
  const m = mapper();
  m.map({ type: "collab_waiting_begin", call_id: "w", sender_thread_id: P, receiver_thread_ids: [C, D], receiver_agents: [] });
  const [done] = m.map({
    type: "collab_waiting_end",
    call_id: "w",
    sender_thread_id: P,
    agent_statuses: [
      { thread_id: C, agent_nickname: "Ada", agent_role: null, status: { completed: "42" } },
      { thread_id: D, agent_nickname: "Bo", agent_role: null, status: { errored: "boom" } },
    ],
    statuses: {},
  }) as Array<{ item: Record<string, unknown> }>;
  assert.deepEqual(done?.item.receiver_thread_ids, [C, D]);
  assert.deepEqual(done?.item.agents_states, { [C]: { status: "completed", message: "42" }, [D]: { status: "errored", message: "boom" } });
  assert.equal(done?.item.status, "failed");
  m.map({ type: "collab_waiting_begin", call_id: "w2", sender_thread_id: P, receiver_thread_ids: [C], receiver_agents: [] });
  const [timedOut] = m.map({ type: "collab_waiting_end", call_id: "w2", sender_thread_id: P, agent_statuses: [], statuses: {} }) as Array<{ item: Record<string, unknown> }>;
  assert.deepEqual([timedOut?.item.tool, timedOut?.item.receiver_thread_ids, timedOut?.item.agents_states, timedOut?.item.status], ["wait", [], {}, "completed"]);
});

void test("resume_agent shows as a wait, as the reference's exec shows it; statuses alone make no item", () => {
  const m = mapper();
  const ref = { receiver_agent_nickname: "Ada", receiver_agent_role: null };
  const [started] = m.map({ type: "collab_resume_begin", call_id: "r", sender_thread_id: P, receiver_thread_id: C, ...ref }) as Array<{ item: Record<string, unknown> }>;
  assert.equal(started?.item.tool, "wait");
  const [ended] = m.map({ type: "collab_resume_end", call_id: "r", sender_thread_id: P, receiver_thread_id: C, ...ref, status: "pending_init" }) as Array<{ item: Record<string, unknown> }>;
  assert.deepEqual(ended?.item.agents_states, { [C]: { status: "pending_init", message: null } });
  assert.deepEqual(m.map({ type: "sub_agent_status", parent_thread_id: P, depth: 1, thread_id: C, agent_nickname: "Ada", agent_role: null, status: "running" }), []);
});
