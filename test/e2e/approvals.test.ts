/**
 * Approval flows through the core's seam: the model's commands and patches under each approval
 * policy, with the real sandbox, answered by exec_approval / patch_approval ops.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Event } from "../../src/protocol/events.js";
import { sandboxPolicyFor, type AskForApproval } from "../../src/protocol/policy.js";
import type { Session } from "../../src/core/session.js";
import type { ModelServer } from "../support/model-server.js";
import { customCall, fnCall, text, turn } from "../support/model-server.js";
import { OUTSIDE_PARENT } from "../support/sandbox-scene.js";
import { askedRequest, requestsIn, until, untilAsked, withSession } from "../support/session.js";

/** A folder outside every writable root (not under /tmp, which workspace-write may write). */
function outsideDir(): string {
  return mkdtempSync(join(OUTSIDE_PARENT, "codex-ts-outside-"));
}

function userTurn(session: Session, cwd: string, policy: AskForApproval, prompt = "go"): string {
  return session.submit({
    type: "user_turn",
    items: [{ type: "text", text: prompt }],
    cwd,
    approval_policy: policy,
    sandbox_policy: sandboxPolicyFor("workspace-write"),
  });
}

/** The output the model got for `callId`. */
function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    for (const item of request.body.input ?? []) {
      const record = item as { call_id?: string; output?: unknown; type?: string };
      if (record.call_id === callId && typeof record.output === "string") return record.output;
    }
  }
  assert.fail(`no output for ${callId}`);
}

const requests = (events: Event[]): Event["msg"][] => requestsIn(events).filter((m) => m.type === "exec_approval_request" || m.type === "apply_patch_approval_request");

const cwdOf = (): string => mkdtempSync(join(tmpdir(), "codex-ts-approvals-"));

void test("untrusted: a known-safe command runs unasked; others wait for the user, who can approve for the session", async () => {
  const cwd = cwdOf();
  const write = { cmd: "echo made > made.txt", yield_time_ms: 5000 };
  await withSession(
    [
      turn(fnCall("exec_command", { cmd: "ls", yield_time_ms: 5000 }, "safe"), fnCall("exec_command", write, "w1")),
      turn(fnCall("exec_command", write, "w2")),
      turn(text("done")),
    ],
    async (session, server) => {
      const id = userTurn(session, cwd, "untrusted");
      const asked = await untilAsked(session, id, "exec_approval_request");
      const request = askedRequest(asked);
      assert.ok(request?.type === "exec_approval_request");
      assert.equal(request.call_id, "w1");
      assert.equal(request.cwd, cwd);
      assert.deepEqual(request.command.slice(1), ["-lc", "echo made > made.txt"]);
      assert.equal(requests(asked).length, 1, "ls was not asked about");
      session.submit({ type: "exec_approval", id: "w1", decision: "approved_for_session" });
      const events = await until(session, id, "task_complete", asked);
      assert.equal(requests(events).length, 1, "the same command in the same folder is not asked again");
      assert.equal(readFileSync(join(cwd, "made.txt"), "utf8"), "made\n");
      assert.match(outputOf(server, "w2"), /Process exited with code 0/);
    },
  );
});

void test("a denied command tells the model, and nothing runs", async () => {
  const cwd = cwdOf();
  await withSession([turn(fnCall("exec_command", { cmd: "touch nope.txt" }, "c")), turn(text("ok"))], async (session, server) => {
    const id = userTurn(session, cwd, "untrusted");
    await untilAsked(session, id, "exec_approval_request");
    session.submit({ type: "exec_approval", id: "c", decision: "denied" });
    const events = await until(session, id, "task_complete");
    assert.equal(outputOf(server, "c"), "exec command rejected by user");
    assert.equal(existsSync(join(cwd, "nope.txt")), false);
    assert.ok(!events.some((e) => e.msg.type === "exec_command_begin"), "a refused command never begins");
  });
});

void test("on-request: an escalation carries the justification and, approved, runs outside the sandbox", async () => {
  const cwd = cwdOf();
  const outside = outsideDir();
  const target = join(outside, "escalated.txt");
  const args = { cmd: `echo out > ${target}`, sandbox_permissions: "require_escalated", justification: "write the report outside", yield_time_ms: 5000 };
  await withSession([turn(fnCall("exec_command", args, "esc")), turn(text("ok"))], async (session, server) => {
    const id = userTurn(session, cwd, "on-request");
    const asked = await untilAsked(session, id, "exec_approval_request");
    const request = askedRequest(asked);
    assert.equal(request?.type === "exec_approval_request" && request.reason, "write the report outside");
    session.submit({ type: "exec_approval", id: "esc", decision: "approved" });
    await until(session, id, "task_complete", asked);
    assert.equal(readFileSync(target, "utf8"), "out\n");
    assert.match(outputOf(server, "esc"), /Process exited with code 0/);
  });
  rmSync(outside, { recursive: true, force: true });
});

void test("on-failure: a write the sandbox blocks is offered for a rerun without it", async () => {
  const cwd = cwdOf();
  const outside = outsideDir();
  const target = join(outside, "retried.txt");
  await withSession([turn(fnCall("exec_command", { cmd: `echo x > ${target}`, yield_time_ms: 5000 }, "r")), turn(text("ok"))], async (session, server) => {
    const id = userTurn(session, cwd, "on-failure");
    const asked = await untilAsked(session, id, "exec_approval_request");
    const request = askedRequest(asked);
    assert.equal(request?.type === "exec_approval_request" && request.reason, "command failed; retry without sandbox?");
    assert.equal(existsSync(target), false, "the sandbox stopped the first attempt");
    session.submit({ type: "exec_approval", id: "r", decision: "approved" });
    const events = await until(session, id, "task_complete", asked);
    assert.equal(readFileSync(target, "utf8"), "x\n");
    assert.equal(events.filter((e) => e.msg.type === "exec_command_begin").length, 1);
    assert.equal(events.filter((e) => e.msg.type === "exec_command_end").length, 1);
    assert.match(outputOf(server, "r"), /Process exited with code 0/);
  });
  rmSync(outside, { recursive: true, force: true });
});

void test("never: nothing is asked and the sandbox's refusal goes back to the model", async () => {
  const cwd = cwdOf();
  const outside = outsideDir();
  const target = join(outside, "blocked.txt");
  await withSession([turn(fnCall("exec_command", { cmd: `echo x > ${target}`, yield_time_ms: 5000 }, "n")), turn(text("ok"))], async (session, server) => {
    const id = userTurn(session, cwd, "never");
    const events = await until(session, id, "task_complete");
    assert.deepEqual(requests(events), []);
    assert.equal(existsSync(target), false);
    assert.match(outputOf(server, "n"), /Process exited with code 1[\s\S]*(Read-only file system|Permission denied)/);
  });
  rmSync(outside, { recursive: true, force: true });
});

void test("a forced removal is refused under never, even with full access, and asked about under on-request", async () => {
  const cwd = cwdOf();
  const victim = join(cwd, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "f"), "keep\n");
  const remove = { cmd: "echo start && rm -rf victim", yield_time_ms: 5000 };
  await withSession([turn(fnCall("exec_command", remove, "never")), turn(text("ok")), turn(fnCall("exec_command", remove, "ask")), turn(text("ok"))], async (session, server) => {
    const first = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], cwd, approval_policy: "never", sandbox_policy: sandboxPolicyFor("danger-full-access") });
    const events = await until(session, first, "task_complete");
    assert.deepEqual(requests(events), []);
    assert.ok(!events.some((e) => e.msg.type === "exec_command_begin"), "nothing began");
    assert.match(outputOf(server, "never"), /rm -rf victim.*: rm with a force option \(-f, --force\) is never run without asking/);
    assert.equal(readFileSync(join(victim, "f"), "utf8"), "keep\n");

    const second = userTurn(session, cwd, "on-request");
    const asked = await untilAsked(session, second, "exec_approval_request");
    session.submit({ type: "exec_approval", id: "ask", decision: "approved" });
    await until(session, second, "task_complete", asked);
    assert.equal(existsSync(victim), false, "approved, it ran");
  });
});

void test("a patch outside the roots asks to open its folder; approved for the session, the folder stays open", async () => {
  const cwd = cwdOf();
  const outside = outsideDir();
  const patch = (name: string): string => `*** Begin Patch\n*** Add File: ${join(outside, name)}\n+hi\n*** End Patch\n`;
  await withSession(
    [turn(customCall("apply_patch", patch("one.txt"), "p1")), turn(customCall("apply_patch", patch("two.txt"), "p2")), turn(text("ok"))],
    async (session) => {
      const id = userTurn(session, cwd, "on-request");
      const asked = await untilAsked(session, id, "apply_patch_approval_request");
      const request = askedRequest(asked);
      assert.ok(request?.type === "apply_patch_approval_request");
      assert.equal(request.grant_root, outside);
      assert.equal(request.reason, `grant write access to ${outside} for this session`);
      session.submit({ type: "patch_approval", id: "p1", decision: "approved_for_session" });
      const events = await until(session, id, "task_complete", asked);
      assert.equal(requests(events).length, 1, "the second patch into the granted folder is not asked about");
      assert.equal(readFileSync(join(outside, "one.txt"), "utf8"), "hi\n");
      assert.equal(readFileSync(join(outside, "two.txt"), "utf8"), "hi\n");
    },
  );
  rmSync(outside, { recursive: true, force: true });
});
