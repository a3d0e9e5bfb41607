/**
 * Every process a session starts ends with codex-ts, even when codex-ts is killed with SIGKILL
 * and gets no chance to clean up: under danger-full-access (no sandbox at all), under the Landlock
 * fallback, and under bubblewrap. The command writes a marker after a delay, once from the
 * command itself and once from a job it put in the background; neither may appear.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fnCall, text, turn } from "../support/model-server.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { linuxMechanisms, waitFor } from "../support/sandbox-scene.js";

// Long enough for codex-ts to be killed before the markers are due, even on a loaded machine.
const DELAY_S = 4;
const SCRIPT = `(sleep ${DELAY_S}; echo survived > background-marker) & echo started > started; sleep ${DELAY_S}; echo survived > marker; wait`;

interface Mode {
  name: string;
  args: string[];
  env: Record<string, string>;
  skip: string | false;
}

const modes: Mode[] = [
  { name: "danger-full-access", args: ["-s", "danger-full-access"], env: {}, skip: false },
  ...(await linuxMechanisms()).map(({ mechanism, skip }) => ({ name: mechanism, args: ["-s", "workspace-write"], env: { CODEX_TS_LINUX_SANDBOX: mechanism }, skip })),
];

for (const mode of modes) {
  void test(`${mode.name}: commands end with a codex-ts killed by SIGKILL, background jobs included`, { skip: mode.skip }, async () => {
    const ws = makeWorkspace();
    await withServer([turn(fnCall("exec_command", { cmd: SCRIPT, yield_time_ms: 30_000 }, "c1")), turn(text("done"))], async (server) => {
      const run = exec(server, [...mode.args, "run it"], {
        cwd: ws.dir,
        home: ws.home,
        env: mode.env,
        timeoutMs: 60_000,
        onSpawn: (child) => {
          void waitFor(() => existsSync(join(ws.dir, "started")), 30_000).then((started) => {
            if (started) child.kill("SIGKILL");
          });
        },
      });
      const result = await run;
      assert.equal(result.code, null, `codex-ts was killed while the command ran: ${result.stderr}`);
      assert.ok(existsSync(join(ws.dir, "started")), "the command ran");
      // Wait past the moment the markers would be written, and a margin for a loaded machine.
      const appeared = await waitFor(() => existsSync(join(ws.dir, "marker")) || existsSync(join(ws.dir, "background-marker")), (DELAY_S + 2) * 1000);
      assert.equal(appeared, false, "a command outlived codex-ts and wrote its marker");
    });
  });
}
