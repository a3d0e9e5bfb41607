/**
 * Patches through the core's seam: asking the user before a write the policy does not cover,
 * and the turn's aggregated diff.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import { customCall, text, turn } from "../support/model-server.js";
import { turnIdIn, until, withSession, untilAsked, askedRequest } from "../support/session.js";

const ADD = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n";

void test("under 'untrusted' a patch waits for the user: denied writes nothing, approved applies", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-patch-session-"));
  const overrides = { cwd, approval_policy: "untrusted", sandbox_policy: sandboxPolicyFor("workspace-write") } as const;
  await withSession(
    [turn(customCall("apply_patch", ADD, "p1")), turn(text("stopped")), turn(customCall("apply_patch", ADD, "p2")), turn(text("done"))],
    async (session, server) => {
      const first = session.submit({ type: "user_turn", items: [{ type: "text", text: "add a.txt" }], ...overrides });
      const asked = await untilAsked(session, first, "apply_patch_approval_request");
      assert.deepEqual(askedRequest(asked), {
        type: "apply_patch_approval_request",
        call_id: "p1",
        turn_id: turnIdIn(asked, first),
        changes: { [join(cwd, "a.txt")]: { type: "add", content: "hi\n" } },
      });
      session.submit({ type: "patch_approval", id: "p1", decision: "denied" });
      const denied = await until(session, first, "task_complete", asked);
      assert.ok(!denied.some((e) => e.msg.type === "patch_apply_begin"));
      assert.equal(existsSync(join(cwd, "a.txt")), false);
      const output = server.requests[1]?.body.input?.find((i) => (i as { call_id?: string }).call_id === "p1" && i.type === "custom_tool_call_output");
      assert.deepEqual(output, { type: "custom_tool_call_output", call_id: "p1", output: "patch rejected by user" });

      const second = session.submit({ type: "user_turn", items: [{ type: "text", text: "again" }], ...overrides });
      await untilAsked(session, second, "apply_patch_approval_request");
      session.submit({ type: "patch_approval", id: "p2", decision: "approved" });
      const applied = await until(session, second, "task_complete");
      const begin = applied.find((e) => e.msg.type === "patch_apply_begin")?.msg;
      assert.equal(begin?.type === "patch_apply_begin" && begin.auto_approved, false);
      const end = applied.find((e) => e.msg.type === "patch_apply_end")?.msg;
      assert.deepEqual(end, { type: "patch_apply_end", call_id: "p2", stdout: "Success. Updated the following files:\nA a.txt\n", stderr: "", success: true });
      assert.equal(readFileSync(join(cwd, "a.txt"), "utf8"), "hi\n");
      const diff = applied.find((e) => e.msg.type === "turn_diff")?.msg;
      assert.deepEqual(diff, {
        type: "turn_diff",
        unified_diff:
          "diff --git a/a.txt b/a.txt\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..45b983be36b73c0788dc9cbcb76cbb80fc7bb057\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+hi\n",
      });
    },
  );
});

void test("a patch inside the workspace applies without asking; .git stays protected even under a writable /tmp", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-patch-session-"));
  const overrides = { cwd, approval_policy: "never", sandbox_policy: sandboxPolicyFor("workspace-write") } as const;
  const intoGit = "*** Begin Patch\n*** Add File: .git/hooks/pre-commit\n+evil\n*** End Patch\n";
  await withSession(
    [turn(customCall("apply_patch", ADD, "ok"), customCall("apply_patch", intoGit, "git")), turn(text("done"))],
    async (session, server) => {
      const id = session.submit({ type: "user_turn", items: [{ type: "text", text: "go" }], ...overrides });
      const events = await until(session, id, "task_complete");
      const begin = events.find((e) => e.msg.type === "patch_apply_begin")?.msg;
      assert.equal(begin?.type === "patch_apply_begin" && begin.auto_approved, true);
      assert.equal(readFileSync(join(cwd, "a.txt"), "utf8"), "hi\n");
      assert.equal(existsSync(join(cwd, ".git/hooks/pre-commit")), false);
      const outputs = server.requests[1]?.body.input?.filter((i) => i.type === "custom_tool_call_output") ?? [];
      assert.deepEqual(
        // Under load the apply can round up to 0.1 seconds; the layout is what matters here.
        outputs.map((o) => (o as { output: string }).output.replace(/^Wall time: [\d.]+ seconds$/m, "Wall time: 0 seconds")),
        [
          "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA a.txt\n",
          "patch rejected: writing outside of the project; rejected by user approval settings",
        ],
      );
    },
  );
});
