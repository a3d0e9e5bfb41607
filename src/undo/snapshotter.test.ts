import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { DEFAULT_LIMITS } from "./exclusions.js";
import { Snapshotter } from "./snapshotter.js";
import { storeLayout } from "./storage.js";

/** The commits among the loose objects of an object folder (what a snapshot writes there). */
function commitsIn(objects: string): string[] {
  const commits: string[] = [];
  for (const fan of readdirSync(objects).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const rest of readdirSync(join(objects, fan))) {
      if (inflateSync(readFileSync(join(objects, fan, rest))).subarray(0, 7).toString("latin1") === "commit ") commits.push(fan + rest);
    }
  }
  return commits;
}

void test("a turn whose tools changed nothing makes no ghost commit; one that changed a file makes one, the one its record names", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-undo-turns-"));
  const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  writeFileSync(join(dir, "a.txt"), "a\n");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  const layout = storeLayout(mkdtempSync(join(tmpdir(), "codex-ts-undo-home-")), "00000000-0000-7000-8000-000000000001");
  const snapshotter = new Snapshotter(layout, { limits: DEFAULT_LIMITS, mayRead: () => true, warn: (message) => assert.fail(message) });
  const turn = async (id: string, tools: () => void): Promise<string | null> => {
    const capture = snapshotter.beginTurn(id, dir);
    capture.toolsStarting();
    await capture.ready;
    tools();
    capture.toolsFinished();
    const pending = await capture.finish();
    return pending === null ? null : (await pending.complete()).ghostCommit.id;
  };

  assert.equal(await turn("quiet", () => {}), null, "nothing to record");
  // What a commit started in the background would have written by now, it would have.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.deepEqual(commitsIn(layout.objects), [], "no ghost commit for a turn that changed nothing");

  const id = await turn("busy", () => writeFileSync(join(dir, "a.txt"), "changed\n"));
  assert.ok(id);
  assert.deepEqual(commitsIn(layout.objects), [id]);
  await snapshotter.close();
});
