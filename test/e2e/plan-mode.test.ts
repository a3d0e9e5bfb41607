/**
 * Plan mode in the interactive UI: Shift+Tab (or /plan) switches it; while on, the model is told
 * it is planning, is offered no patch tool, its commands run read-only and cannot ask to leave
 * the sandbox, and `plan_mode_reasoning_effort` applies; switching back restores all of it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { baseUrlArgs, makeWorkspace } from "../support/cli.js";
import { fnCall, startModelServer, text, turn, type JsonObject } from "../support/model-server.js";
import { KEY, PtySession } from "../support/pty.js";

const SHIFT_TAB = "\x1b[Z";
const toolNames = (tools: JsonObject[] | undefined): string[] => (tools ?? []).map((t) => String(t.name ?? t.type));

void test("Shift+Tab plans without changing anything; /plan off works again", async () => {
  const ws = makeWorkspace({ config: 'plan_mode_reasoning_effort = "high"\nsandbox_mode = "workspace-write"\napproval_policy = "on-request"\n' });
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: "touch planned.txt", login: false, yield_time_ms: 5000 }, "p1")),
    turn(fnCall("exec_command", { cmd: "touch escaped.txt", login: false, sandbox_permissions: "require_escalated", justification: "write it", yield_time_ms: 5000 }, "p2")),
    turn(text("Plan: 1. create worked.txt")),
    turn(fnCall("exec_command", { cmd: "touch worked.txt", login: false, yield_time_ms: 5000 }, "w1")),
    turn(text("done")),
  ]);
  const ui = new PtySession([...baseUrlArgs(server.url)], { cwd: ws.dir, home: ws.home, cols: 120, rows: 40 });
  try {
    await ui.waitFor("Enter to send");
    ui.write(SHIFT_TAB);
    await ui.waitFor("Plan mode: the agent reads, asks and writes a plan");
    await ui.type("make the files");
    ui.write(KEY.enter);
    await ui.waitFor("Plan: 1. create worked.txt");
    const planning = server.requests[0]?.body;
    assert.match(JSON.stringify(planning?.input), /<collaboration_mode>plan<\/collaboration_mode>/);
    assert.ok(!toolNames(planning?.tools).includes("apply_patch"), "no patch tool while planning");
    assert.equal((planning?.reasoning as { effort?: string } | undefined)?.effort, "high");
    assert.equal(existsSync(join(ws.dir, "planned.txt")), false, "the command ran read-only");
    const escalated = (server.requests[2]?.body.input ?? []).find((i) => i.type === "function_call_output" && i.call_id === "p2");
    assert.match(JSON.stringify(escalated?.output), /plan mode: commands run read-only/);
    assert.equal(existsSync(join(ws.dir, "escaped.txt")), false);

    await ui.type("/plan off");
    ui.write(KEY.enter);
    await ui.waitFor("Plan mode off");
    await ui.type("now do it");
    ui.write(KEY.enter);
    await ui.waitFor("done");
    const working = server.requests[3]?.body;
    assert.match(JSON.stringify(working?.input), /<collaboration_mode>default<\/collaboration_mode>/);
    assert.ok(toolNames(working?.tools).includes("apply_patch"));
    assert.notEqual((working?.reasoning as { effort?: string } | undefined)?.effort, "high");
    assert.equal(existsSync(join(ws.dir, "worked.txt")), true);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0);
    assert.deepEqual(server.violations, []);
  } finally {
    ui.kill();
    await server.close();
  }
});
