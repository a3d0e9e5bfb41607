/**
 * A repository (or a sessions folder) whose files are built to hurt: AGENTS.md, .git/HEAD and
 * .git/config as links to /dev/zero or FIFOs, a 200 MB AGENTS.md, a FIFO for a skill, a rules
 * file or the project's config.toml, and a FIFO among the session files. Each must neither hang
 * the start nor fill the memory: only regular files are read, never past the limit, and the
 * file is named in a warning (or, for settings that must load whole, in the error that stops).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exec, makeWorkspace, runCli, withServer } from "../support/cli.js";
import { text, turn } from "../support/model-server.js";

const mkfifo = (path: string): void => void execFileSync("mkfifo", [path]);
/** Well past what a sound start takes; a hanging start is killed and fails the test here. */
const HANG = 20_000;

void test("AGENTS.md and .git/HEAD as links to /dev/zero, .git/config and a SKILL.md as FIFOs: exec starts, answers, and names each file", async () => {
  const ws = makeWorkspace();
  symlinkSync("/dev/zero", join(ws.dir, "AGENTS.md"));
  symlinkSync("/dev/zero", join(ws.dir, ".git", "HEAD"));
  mkfifo(join(ws.dir, ".git", "config"));
  writeFileSync(join(ws.dir, ".git", "packed-refs"), "");
  mkdirSync(join(ws.dir, ".codex", "skills", "trap"), { recursive: true });
  mkfifo(join(ws.dir, ".codex", "skills", "trap", "SKILL.md"));
  await withServer([turn(text("still here"))], async (server) => {
    const run = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home, timeoutMs: HANG });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /still here/);
    assert.match(run.stderr, /AGENTS\.md is a character device, not a regular file/);
    assert.match(run.stderr, /trap\/SKILL\.md was not loaded: .*SKILL\.md is a named pipe \(FIFO\), not a regular file/);
    assert.match(run.stderr, /\.git\/HEAD is a character device, not a regular file.*no git details/);
    const input = JSON.stringify(server.requests[0]?.body.input ?? []);
    assert.doesNotMatch(input, /AGENTS\.md instructions/, "no instructions came from the refused file");
  });
});

void test("a FIFO .git/config behind a valid HEAD is named in a warning; the session still records the branch", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkfifo(join(ws.dir, ".git", "config"));
  await withServer([turn(text("ok"))], async (server) => {
    const run = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home, timeoutMs: HANG });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\.git\/config is a named pipe \(FIFO\), not a regular file/);
  });
});

void test("a 200 MB AGENTS.md sends only project_doc_max_bytes of it, with a warning giving both sizes", async () => {
  const ws = makeWorkspace();
  const big = join(ws.dir, "AGENTS.md");
  writeFileSync(big, "Always answer in French.\n");
  truncateSync(big, 200 * 1024 * 1024); // sparse: 200 MB to read, no disk used
  await withServer([turn(text("d'accord"))], async (server) => {
    const run = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home, timeoutMs: HANG });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`AGENTS\\.md: only its first 32768 of ${200 * 1024 * 1024} bytes are in the instructions`));
    const input = JSON.stringify(server.requests[0]?.body.input ?? []);
    assert.match(input, /Always answer in French\./);
    assert.ok(input.length < 300 * 1024, `the request stays small (${input.length} characters)`);
  });
});

void test("a trusted project's .codex/config.toml or rules file as a FIFO stops the start at once, naming the file", async () => {
  for (const trap of [join(".codex", "config.toml"), join(".codex", "rules", "default.rules")]) {
    const ws = makeWorkspace();
    writeFileSync(join(ws.home, "config.toml"), `[projects.${JSON.stringify(ws.dir)}]\ntrust_level = "trusted"\n`);
    mkdirSync(join(ws.dir, ".codex", "rules"), { recursive: true });
    mkfifo(join(ws.dir, trap));
    await withServer([], async (server) => {
      const run = await exec(server, ["hello"], { cwd: ws.dir, home: ws.home, timeoutMs: HANG });
      assert.notEqual(run.code, 0);
      assert.ok(run.stderr.includes(`${join(ws.dir, trap)} is a named pipe (FIFO), not a regular file`), run.stderr);
      assert.equal(server.requests.length, 0);
    });
  }
});

void test("sessions --all passes over a FIFO in the sessions folder and lists the real session", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("recorded"))], async (server) => {
    const run = await exec(server, ["the real one"], { cwd: ws.dir, home: ws.home });
    assert.equal(run.code, 0, run.stderr);
  });
  const day = join(ws.home, "sessions", "2025", "01", "02");
  mkdirSync(day, { recursive: true });
  mkfifo(join(day, "rollout-2025-01-02T03-04-05-0194a6b8-0000-7000-8000-000000000000.jsonl"));
  const listed = await runCli(["sessions", "--all"], { cwd: ws.dir, home: ws.home, timeoutMs: HANG });
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /the real one/);
  assert.doesNotMatch(listed.stdout, /0194a6b8-0000-7000-8000-000000000000/);
});
