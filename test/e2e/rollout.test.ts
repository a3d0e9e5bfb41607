/**
 * Session files as `codex-ts exec` writes them: where, in which format, what they hold (exactly
 * what the model saw), what they leave out; `--ephemeral`; forking; `codex-ts sessions`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fnCall, text, turn } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, runCli, withServer } from "../support/cli.js";
import { readLines, responseItems, rolloutFileOf, rolloutFiles, threadIdOf } from "../support/rollout.js";

const FULL = ["-s", "danger-full-access"];
const SHA = "0123456789abcdef0123456789abcdef01234567";

void test("a session is recorded where and as the reference records it, holding exactly what the model saw", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(ws.dir, ".git", "refs", "heads"), { recursive: true });
  writeFileSync(join(ws.dir, ".git", "refs", "heads", "main"), `${SHA}\n`);
  writeFileSync(join(ws.dir, ".git", "config"), '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://example.com/repo.git\n');
  await withServer(
    [turn(fnCall("exec_command", { cmd: "echo recorded" }, "call_1")), turn(text("All done."))],
    async (server) => {
      const r = await exec(server, [...FULL, "--json", "record this"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      const id = threadIdOf(jsonLines(r.stdout));
      const file = rolloutFileOf(ws.home, id);

      // sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl, local time.
      const m = /sessions\/(\d{4})\/(\d{2})\/(\d{2})\/rollout-(\d{4})-(\d{2})-(\d{2})T\d{2}-\d{2}-\d{2}-(.+)\.jsonl$/.exec(file);
      assert.ok(m, file);
      assert.deepEqual([m[1], m[2], m[3]], [m[4], m[5], m[6]]);
      assert.equal(m[7], id);

      const lines = readLines(file);
      for (const line of lines) {
        assert.deepEqual(Object.keys(line), ["timestamp", "type", "payload"]);
        assert.match(line.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      const meta = lines[0];
      assert.equal(meta?.type, "session_meta");
      assert.equal(lines.filter((l) => l.type === "session_meta").length, 1);
      const p = meta.payload;
      // The keys 0.169 writes too, in its order (it adds account_scoped, runtime_workspace_roots, …).
      assert.deepEqual(Object.keys(p), ["session_id", "id", "timestamp", "cwd", "originator", "cli_version", "source", "thread_source", "model_provider", "base_instructions", "git"]);
      assert.equal(p.id, id);
      assert.equal(p.session_id, id, "a user's thread is its own tree's root");
      assert.equal(p.thread_source, "user");
      assert.equal(p.cwd, ws.dir);
      assert.equal(p.originator, "codex_exec");
      assert.equal(p.source, "exec");
      assert.equal(p.model_provider, "openai");
      assert.match(String((p.base_instructions as { text?: unknown }).text), /\S/);
      assert.deepEqual(p.git, { commit_hash: SHA, branch: "main", repository_url: "https://example.com/repo.git" });

      // The response items are the last request's input (after the base instructions) plus the answer.
      const lastInput = server.requests.at(-1)?.body.input ?? [];
      assert.deepEqual(lastInput[0], { type: "message", role: "developer", content: [{ type: "input_text", text: (p.base_instructions as { text: string }).text }] });
      assert.deepEqual(responseItems(file), [...lastInput.slice(1), { type: "message", role: "assistant", content: [{ type: "output_text", text: "All done." }] }]);

      // One turn_context per user turn; only the events a replay and a redraw need.
      const contexts = lines.filter((l) => l.type === "turn_context");
      assert.equal(contexts.length, 1);
      assert.equal(contexts[0]?.payload.cwd, ws.dir);
      assert.equal(contexts[0]?.payload.model, "gpt-5.5");
      assert.deepEqual(contexts[0]?.payload.sandbox_policy, { type: "danger-full-access" });
      const events = lines.filter((l) => l.type === "event_msg").map((l) => String(l.payload.type));
      assert.deepEqual(events, ["task_started", "user_message", "token_count", "exec_command_end", "agent_message", "token_count", "task_complete"]);
      const turnIds = lines.filter((l) => l.payload.type === "task_started" || l.type === "turn_context" || l.payload.type === "task_complete").map((l) => l.payload.turn_id);
      assert.equal(new Set(turnIds).size, 1);
      assert.deepEqual(lines.find((l) => l.payload.type === "user_message")?.payload, { type: "user_message", message: "record this", images: null });
      // The command as the reference records it (its output once: the model's copy is in the response items).
      const command = lines.find((l) => l.payload.type === "exec_command_end")?.payload ?? {};
      const argv = command.command as string[];
      assert.deepEqual(argv.slice(1), ["-lc", "echo recorded"]);
      assert.deepEqual(
        { ...command, command: argv.slice(1), parsed_cmd: command.parsed_cmd, duration: typeof command.duration },
        {
          type: "exec_command_end",
          call_id: "call_1",
          command: ["-lc", "echo recorded"],
          cwd: ws.dir,
          stdout: "",
          stderr: "",
          aggregated_output: "recorded\n",
          exit_code: 0,
          duration: "object",
          formatted_output: "",
          turn_id: turnIds[0],
          status: "completed",
          parsed_cmd: [{ type: "unknown", cmd: `${argv[0]} -lc 'echo recorded'` }],
        },
      );
      assert.equal(typeof lines.find((l) => l.payload.type === "task_complete")?.payload.duration_ms, "number");
    },
  );
});

void test("--ephemeral writes no session file; neither does a run that never reaches a turn", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("gone"))], async (server) => {
    const r = await exec(server, ["--ephemeral", "--json", "forget me"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    const noPrompt = await exec(server, [], { cwd: ws.dir, home: ws.home, stdin: "" });
    assert.equal(noPrompt.code, 1);
    assert.equal(existsSync(join(ws.home, "sessions")), false);
  });
});

void test("fork copies a thread into a new one that names its parent; the parent file is untouched", async () => {
  const ws = makeWorkspace();
  await withServer([turn(text("Parent answer.")), turn(text("Fork answer.")), turn(text("Exec fork answer."))], async (server) => {
    const first = await exec(server, [...FULL, "--json", "parent prompt"], { cwd: ws.dir, home: ws.home });
    assert.equal(first.code, 0, first.stderr);
    const parentId = threadIdOf(jsonLines(first.stdout));
    const parentFile = rolloutFileOf(ws.home, parentId);
    const parentBytes = readFileSync(parentFile);
    const parentInput = JSON.stringify(server.requests[0]?.body.input);

    const fork = await runCli(["fork", parentId], { cwd: ws.dir, home: ws.home });
    assert.equal(fork.code, 0, fork.stderr);
    const forkId = fork.stdout.trim();
    assert.match(forkId, /^[0-9a-f-]{36}$/);
    assert.notEqual(forkId, parentId);
    const forkFile = rolloutFileOf(ws.home, forkId);
    const forkLines = readLines(forkFile);
    assert.equal(forkLines[0]?.type, "session_meta");
    assert.equal(forkLines[0]?.payload.id, forkId);
    assert.equal(forkLines[0]?.payload.forked_from_id, parentId);
    assert.equal(forkLines.filter((l) => l.type === "session_meta").length, 1);
    assert.deepEqual(responseItems(forkFile), responseItems(parentFile));

    // Continuing the fork resends the parent's conversation under the fork's id.
    const cont = await exec(server, [...FULL, "--json", "resume", forkId, "fork prompt"], { cwd: ws.dir, home: ws.home });
    assert.equal(cont.code, 0, cont.stderr);
    assert.equal(threadIdOf(jsonLines(cont.stdout)), forkId);
    const forkRequest = server.requests[1];
    assert.ok(JSON.stringify(forkRequest?.body.input).startsWith(parentInput.slice(0, -1)));
    assert.equal(forkRequest?.body.prompt_cache_key, forkId);

    // `exec fork` forks and runs in one go.
    const execFork = await exec(server, [...FULL, "--json", "fork", parentId, "exec fork prompt"], { cwd: ws.dir, home: ws.home });
    assert.equal(execFork.code, 0, execFork.stderr);
    const execForkId = threadIdOf(jsonLines(execFork.stdout));
    assert.ok(![parentId, forkId].includes(execForkId));
    assert.equal(readLines(rolloutFileOf(ws.home, execForkId))[0]?.payload.forked_from_id, parentId);
    assert.ok(JSON.stringify(server.requests[2]?.body.input).startsWith(parentInput.slice(0, -1)));
    assert.deepEqual(jsonLines(execFork.stdout).filter((e) => e.type === "item.completed").map((e) => (e.item as { type: string }).type), ["agent_message"]);

    assert.deepEqual(readFileSync(parentFile), parentBytes, "the parent file must not change");
    assert.equal(rolloutFiles(ws.home).length, 3);
  });
});

void test("codex-ts sessions lists this directory's threads newest first; --all every directory's; --json for scripts", async () => {
  const ws = makeWorkspace();
  const other = join(ws.dir, "..", "other");
  mkdirSync(join(other, ".git"), { recursive: true });
  await withServer([turn(text("a")), turn(text("b")), turn(text("c"))], async (server) => {
    const ids: string[] = [];
    for (const [cwd, prompt] of [[ws.dir, "first here"], [other, "over there"], [ws.dir, "second here\nwith a second line"]] as const) {
      const r = await exec(server, ["--json", prompt], { cwd, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      ids.push(threadIdOf(jsonLines(r.stdout)));
      await new Promise((resolve) => setTimeout(resolve, 20)); // distinct modification times
    }
    const [here1, there, here2] = ids;

    const listed = await runCli(["sessions"], { cwd: ws.dir, home: ws.home });
    assert.equal(listed.code, 0, listed.stderr);
    const rows = listed.stdout.trim().split("\n");
    assert.match(rows[0] ?? "", /^SESSION ID\s+UPDATED\s+FIRST PROMPT$/);
    assert.deepEqual(rows.slice(1).map((r) => r.split(/\s+/)[0]), [here2, here1]);
    assert.match(rows[1] ?? "", /second here with a second line$/);

    const all = await runCli(["sessions", "--all", "--json"], { cwd: ws.dir, home: ws.home });
    assert.equal(all.code, 0, all.stderr);
    const parsed = JSON.parse(all.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(parsed.map((t) => t.id), [here2, there, here1]);
    const entry = parsed[1];
    assert.equal(entry?.cwd, other);
    assert.equal(entry?.first_user_message, "over there");
    assert.equal(entry?.model_provider, "openai");
    assert.equal(basename(String(entry?.path)).endsWith(`-${there}.jsonl`), true);
    assert.match(String(entry?.created_at), /Z$/);

    const limited = JSON.parse((await runCli(["sessions", "--all", "--json", "-n", "1"], { cwd: ws.dir, home: ws.home })).stdout) as unknown[];
    assert.equal(limited.length, 1);
    const empty = await runCli(["sessions"], { cwd: join(ws.dir, ".."), home: ws.home });
    assert.equal(empty.stdout, "");
    assert.match(empty.stderr, /No recorded sessions/);
  });
});

void test("under umask 000 the folders made for sessions and CODEX_HOME itself are owner-only (0700), and so is the session file", async () => {
  const ws = makeWorkspace();
  const home = join(ws.home, "fresh-home"); // created by codex-ts itself
  await withServer([turn(text("ok"))], async (server) => {
    // The child inherits the umask in force when it is spawned.
    const previous = process.umask(0o000);
    let running: ReturnType<typeof exec>;
    try {
      running = exec(server, ["hello"], { cwd: ws.dir, home });
    } finally {
      process.umask(previous);
    }
    const run = await running;
    assert.equal(run.code, 0, run.stderr);
  });
  const file = rolloutFiles(home)[0] ?? "";
  assert.ok(file, "the session was recorded");
  const folders = [];
  for (let dir = dirname(file); dir.startsWith(home); dir = dirname(dir)) folders.push(dir);
  assert.deepEqual(folders.map((d) => [relative(ws.home, d), (statSync(d).mode & 0o777).toString(8)]), folders.map((d) => [relative(ws.home, d), "700"]));
  assert.equal((statSync(file).mode & 0o777).toString(8), "600");
});
