/**
 * A command cannot read codex-ts's environment, where the API key lives, through /proc: not its
 * parent's `environ`, not any process's on the machine that codex-ts started, in every sandbox
 * mode (run as root here, where file permissions stop nothing). Under Landlock the command
 * shares codex-ts's /proc, so this rests on codex-ts blanking its initial environment block.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { fnCall, text, turn, type ModelServer } from "../support/model-server.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { linuxMechanisms } from "../support/sandbox-scene.js";

function outputOf(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    const item = (request.body.input ?? []).find((i) => i.call_id === callId && typeof i.output === "string");
    if (item) return item.output as string;
  }
  return "(no output)";
}

const modes = [
  { name: "danger-full-access", args: ["-s", "danger-full-access"], env: {}, skip: false as string | false },
  ...(await linuxMechanisms()).map(({ mechanism, skip }) => ({ name: mechanism, args: ["-s", "workspace-write"], env: { CODEX_TS_LINUX_SANDBOX: mechanism }, skip })),
];

for (const mode of modes) {
  void test(`${mode.name}: the API key is in no /proc/<pid>/environ a command can read, its parent's included`, { skip: process.platform !== "linux" ? "Linux only" : mode.skip }, async () => {
    const secret = `sk-proc-probe-${randomUUID()}`;
    // The secret is split in the script so the command's own command line does not match itself.
    const [head, tail] = [secret.slice(0, 12), secret.slice(12)];
    const script = [
      `s="${head}""${tail}"`,
      `printf 'parent=%s\\n' "$(tr '\\0' '\\n' < /proc/$PPID/environ 2>/dev/null | grep -c OPENAI_API_KEY)"`,
      `printf 'holders=%s\\n' "$(grep -l -F "$s" /proc/[0-9]*/environ 2>/dev/null | tr '\\n' ' ')"`,
    ].join("; ");
    const ws = makeWorkspace();
    await withServer([turn(fnCall("exec_command", { cmd: script, yield_time_ms: 20_000 }, "c1")), turn(text("done"))], async (server) => {
      const r = await exec(server, [...mode.args, "look around"], { cwd: ws.dir, home: ws.home, env: { ...mode.env, OPENAI_API_KEY: secret } });
      assert.equal(r.code, 0, r.stderr);
      const output = outputOf(server, "c1");
      assert.match(output, /parent=0\b/, output);
      assert.match(output, /holders=\s*(\n|$)/, output);
    });
  });
}
