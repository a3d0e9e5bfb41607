import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRolloutFileName, rolloutPath, serializeLine } from "./format.js";
import { gitInfo } from "./git-info.js";

const ID = "01a20039-0605-7f82-bb57-0384ad2af383";

void test("file names use local time with dashes and round-trip through the parser", () => {
  const date = new Date(2026, 10, 21, 22, 27, 46);
  const path = rolloutPath("/home/u/.codex", ID, date);
  assert.equal(path, `/home/u/.codex/sessions/2026/11/21/rollout-2026-11-21T22-27-46-${ID}.jsonl`);
  assert.deepEqual(parseRolloutFileName(`rollout-2026-11-21T22-27-46-${ID.toUpperCase()}.jsonl`), { stamp: "2026-11-21T22-27-46", threadId: ID });
  assert.equal(parseRolloutFileName("rollout-2026-11-21-x.jsonl"), null);
});

void test("lines are {timestamp, type, payload} with a UTC millisecond timestamp", () => {
  const line = serializeLine("event_msg", { type: "agent_message", message: "hi" }, new Date(Date.UTC(2026, 10, 21, 22, 27, 46, 5)));
  assert.equal(line, '{"timestamp":"2026-11-21T22:27:46.005Z","type":"event_msg","payload":{"type":"agent_message","message":"hi"}}\n');
});

void test("git info comes from the repository's files: branch, commit (loose or packed), origin; worktrees too", () => {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-git-"));
  const git = join(root, "repo", ".git");
  mkdirSync(join(git, "refs", "heads"), { recursive: true });
  writeFileSync(join(git, "HEAD"), "ref: refs/heads/feature/x\n");
  writeFileSync(join(git, "packed-refs"), `# pack-refs with: peeled\n${"a".repeat(40)} refs/heads/feature/x\n`);
  writeFileSync(join(git, "config"), '[remote "upstream"]\n\turl = nope\n[remote "origin"]\n\turl = git@example.com:o/r.git\n');
  mkdirSync(join(root, "repo", "sub"));
  assert.deepEqual(gitInfo(join(root, "repo", "sub")), { commit_hash: "a".repeat(40), branch: "feature/x", repository_url: "git@example.com:o/r.git" });

  mkdirSync(join(git, "worktrees", "wt"), { recursive: true });
  writeFileSync(join(git, "worktrees", "wt", "HEAD"), `${"b".repeat(40)}\n`);
  writeFileSync(join(git, "worktrees", "wt", "commondir"), "../..\n");
  mkdirSync(join(root, "wt"));
  writeFileSync(join(root, "wt", ".git"), `gitdir: ${join(git, "worktrees", "wt")}\n`);
  assert.deepEqual(gitInfo(join(root, "wt")), { commit_hash: "b".repeat(40), repository_url: "git@example.com:o/r.git" });

  mkdirSync(join(root, "empty", ".git"), { recursive: true });
  assert.equal(gitInfo(join(root, "empty")), undefined);
});
