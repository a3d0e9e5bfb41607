/**
 * What a plain `exec` loads: a run with full access that runs a command and applies a patch, with
 * no hook to run, no collab tool called and no undo, loads neither the hooks engine, nor the
 * sub-agent tool handlers, nor undo's restore path, nor the sandbox mechanisms (each loads on
 * first use). A hook that runs does load the
 * engine, which shows the check sees those modules when they are used.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exec, makeWorkspace, NEEDS_TSC_BUILD, withServer } from "../support/cli.js";
import { loadOrderEnv, readLoadOrder } from "../support/load-order.js";
import { customCall, fnCall, text, turn } from "../support/model-server.js";

const PATCH = "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n";
const ON_USE = /hooks\/(engine|dispatch|runner|output|payloads)\.js|tools\/handlers\/multi-agent\.js|undo\/(restore|plan|safe-write)\.js|sandbox\/(confine|landlock|seatbelt|seccomp)\.js/;

function script(): ReturnType<typeof turn>[] {
  return [
    turn(fnCall("exec_command", { cmd: "echo hello > a.txt && cat a.txt", workdir: "." }, "call_1")),
    turn(customCall("apply_patch", PATCH, "call_2")),
    turn(text("done")),
  ];
}

async function loadedBy(hooksJson: string | null): Promise<{ loaded: string; dir: string }> {
  const ws = makeWorkspace();
  if (hooksJson !== null) writeFileSync(join(ws.home, "hooks.json"), hooksJson);
  const log = join(ws.home, "loads.txt");
  await withServer(script(), async (server) => {
    const args = [...(hooksJson !== null ? ["--dangerously-bypass-hook-trust"] : []), "-s", "danger-full-access", "go"];
    const run = await exec(server, args, { cwd: ws.dir, home: ws.home, env: loadOrderEnv(log) });
    assert.equal(run.code, 0, run.stderr);
  });
  return { loaded: readLoadOrder(log).before.join("\n"), dir: ws.dir };
}

void test("a plain exec run loads no hooks engine, collab tool handlers, undo restore or sandbox mechanism", { skip: NEEDS_TSC_BUILD }, async () => {
  const { loaded, dir } = await loadedBy(null);
  assert.equal(readFileSync(join(dir, "a.txt"), "utf8"), "hello world\n");
  assert.match(loaded, /core\/session\.js/, "the hook saw the run's modules");
  assert.match(loaded, /hooks\/session-hooks\.js/, "the session holds its hooks");
  assert.deepEqual(loaded.split("\n").filter((url) => ON_USE.test(url)), []);
});

void test("a hook that runs loads the engine", { skip: NEEDS_TSC_BUILD }, async () => {
  const hooksJson = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "cat > /dev/null" }] }] } });
  const { loaded } = await loadedBy(hooksJson);
  assert.match(loaded, /hooks\/engine\.js/);
  assert.match(loaded, /hooks\/runner\.js/);
  assert.doesNotMatch(loaded, /tools\/handlers\/multi-agent\.js|undo\/restore\.js/);
});
