import { test } from "node:test";
import assert from "node:assert/strict";
import { SubAgentLedger } from "./sub-agent-ledger.js";

const A = "01a21734-94da-7f62-85b3-fc7a5b358fb7";
const B = "01a21734-9500-7f62-85b3-fc7a5b358fb8";

void test("children as the rollout recorded them: started, last status, closed or reopened", () => {
  const ledger = new SubAgentLedger();
  const spawn = (id: string, nickname: string): Record<string, unknown> => ({ type: "collab_agent_spawn_end", new_thread_id: id, new_agent_nickname: nickname, new_agent_role: "explorer" });
  ledger.add(spawn(A, "Ada"));
  ledger.add(spawn(B, "Bo"));
  ledger.add({ type: "collab_agent_spawn_end", new_thread_id: null });
  ledger.add({ type: "sub_agent_status", thread_id: A, status: "running" });
  ledger.add({ type: "sub_agent_status", thread_id: A, status: { completed: "the answer" } });
  // The parent's shutdown ending the child says nothing of where it stood.
  ledger.add({ type: "sub_agent_status", thread_id: A, status: "shutdown" });
  ledger.add({ type: "sub_agent_status", thread_id: B, status: "running" });
  ledger.add({ type: "collab_close_end", receiver_thread_id: B, status: "running" });
  ledger.add({ type: "collab_resume_end", receiver_thread_id: B, status: "pending_init" });
  ledger.add({ type: "collab_close_end", receiver_thread_id: B, status: "pending_init" });
  ledger.add({ type: "collab_close_end", receiver_thread_id: "01a21734-0000-7000-8000-000000000000", status: "not_found" });
  assert.deepEqual(ledger.list(), [
    { threadId: A, nickname: "Ada", role: "explorer", status: { completed: "the answer" }, closed: false },
    // Recorded as working when the process ended: interrupted now.
    { threadId: B, nickname: "Bo", role: "explorer", status: "interrupted", closed: true },
  ]);
});
