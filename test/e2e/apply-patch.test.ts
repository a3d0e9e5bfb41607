/**
 * End-to-end: patches the scripted model sends, applied by the real `codex-ts exec`, in every
 * shape the reference accepts (freeform tool, function tool, shell argv, shell heredoc), and
 * the standalone `codex-ts apply_patch` command.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { text, fnCall, customCall, turn, type ModelServer } from "../support/model-server.js";
import { exec, jsonLines, makeWorkspace, runCli, withServer } from "../support/cli.js";

const WRITE = ["-s", "workspace-write"];
const UPDATE_A = "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n";

/** The output the model received for `callId`, from the request after the call. */
function toolOutput(server: ModelServer, callId: string): string {
  for (const request of server.requests) {
    for (const item of request.body.input ?? []) {
      const record = item as Record<string, unknown>;
      // A patch applies in well under 50 ms, but a loaded CI machine can round that up to 0.1.
      if (record.call_id === callId && typeof record.output === "string") return steadyWallTime(record.output);
    }
  }
  assert.fail(`no output for ${callId}`);
}

function steadyWallTime(output: string): string {
  return output.replace(/^Wall time: [\d.]+ seconds$/m, "Wall time: 0 seconds").replace(/"duration_seconds":[\d.]+/, '"duration_seconds":0.0');
}

void test("a freeform patch from gpt-5.5 edits the file, shows a file_change item and tells the model", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "hello\n");
  await withServer([turn(customCall("apply_patch", UPDATE_A, "call_p")), turn(text("Done."))], async (server) => {
    const r = await exec(server, [...WRITE, "--json", "edit a.txt"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello world\n");
    assert.equal(
      toolOutput(server, "call_p"),
      "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM a.txt\n",
    );
    const items = jsonLines(r.stdout).filter((e) => (e.item as { type?: string } | undefined)?.type === "file_change");
    const change = { path: join(ws.dir, "a.txt"), kind: "update" };
    assert.deepEqual(
      items.map((e) => [e.type, (e.item as { status: string }).status, (e.item as { changes: unknown }).changes]),
      [
        ["item.started", "in_progress", [change]],
        ["item.completed", "completed", [change]],
      ],
    );
  });
});

void test("a patch that does not apply changes nothing and the model reads why", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "something else\n");
  const patch = "*** Begin Patch\n*** Add File: b.txt\n+new\n*** Update File: a.txt\n@@\n-hello\n+hello world\n*** End Patch\n";
  await withServer([turn(customCall("apply_patch", patch, "call_p")), turn(text("I will re-read the file."))], async (server) => {
    const r = await exec(server, [...WRITE, "--json", "edit a.txt"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      toolOutput(server, "call_p"),
      `apply_patch verification failed: Failed to find expected lines in ${join(ws.dir, "a.txt")}:\nhello`,
    );
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "something else\n");
    assert.equal(existsSync(join(ws.dir, "b.txt")), false);
    assert.ok(!r.stdout.includes("file_change"), "a patch refused before applying emits no file change");
  });
});

void test("the function form (gpt-4.1) gets the JSON layout, and a read-only sandbox refuses the write", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "hello\n");
  const call = fnCall("apply_patch", { input: UPDATE_A }, "call_f");
  await withServer([turn(call), turn(text("ok")), turn(call), turn(text("ok"))], async (server) => {
    const write = await exec(server, ["-m", "gpt-4.1", ...WRITE, "edit"], { cwd: ws.dir, home: ws.home });
    assert.equal(write.code, 0, write.stderr);
    assert.match(
      toolOutput(server, "call_f"),
      /^\{"output":"Success\. Updated the following files:\\nM a\.txt\\n","metadata":\{"exit_code":0,"duration_seconds":0\.0\}\}$/,
    );
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello world\n");

    // exec never asks for approval, so a write the read-only sandbox does not allow is refused:
    // the model is told the sandbox is read-only, and the person reading stderr which flag allows it.
    writeFileSync(join(ws.dir, "a.txt"), "hello\n");
    const readOnly = await exec(server, ["-m", "gpt-4.1", "--color", "never", "edit"], { cwd: ws.dir, home: ws.home });
    assert.equal(readOnly.code, 0, readOnly.stderr);
    const outputs = server.requests[3]?.body.input?.filter((i) => (i as { call_id?: string }).call_id === "call_f") ?? [];
    assert.deepEqual(outputs.at(-1), {
      type: "function_call_output",
      call_id: "call_f",
      output: "patch rejected: writing is blocked by read-only sandbox; rejected by user approval settings",
    });
    assert.ok(
      readOnly.stderr.includes(
        "apply_patch\npatch rejected: writing is blocked by read-only sandbox; rejected by user approval settings\n" +
          "the sandbox is read-only; run with --sandbox workspace-write (or --full-auto) to let the agent edit files\n",
      ),
      readOnly.stderr,
    );
    assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello\n");
  });
});

void test("a patch outside the writable folders is refused with the --add-dir that would allow it, and --json stays as the reference's", async () => {
  const ws = makeWorkspace();
  const outside = join(ws.home, "elsewhere", "note.txt");
  const patch = `*** Begin Patch\n*** Add File: ${outside}\n+note\n*** End Patch\n`;
  // The test folders live in the temporary folder, which workspace-write allows unless told not to.
  const onlyWorkspace = [...WRITE, "-c", "sandbox_workspace_write.exclude_slash_tmp=true", "-c", "sandbox_workspace_write.exclude_tmpdir_env_var=true"];
  await withServer([turn(customCall("apply_patch", patch, "call_o")), turn(text("ok")), turn(customCall("apply_patch", patch, "call_o")), turn(text("ok"))], async (server) => {
    const human = await exec(server, [...onlyWorkspace, "--color", "never", "write a note"], { cwd: ws.dir, home: ws.home });
    assert.equal(human.code, 0, human.stderr);
    assert.equal(toolOutput(server, "call_o"), "patch rejected: writing outside of the project; rejected by user approval settings");
    assert.ok(human.stderr.includes(`${outside} is outside the writable folders; --add-dir ${join(ws.home, "elsewhere")} would allow it\n`), human.stderr);
    assert.equal(existsSync(outside), false);
    // The refusal is no item of the JSON stream (the reference shows none either).
    const json = await exec(server, [...onlyWorkspace, "--json", "write a note"], { cwd: ws.dir, home: ws.home });
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(
      jsonLines(json.stdout).map((e) => (e.item as { type?: string } | undefined)?.type ?? e.type),
      ["thread.started", "turn.started", "agent_message", "turn.completed"],
    );
  });
});

void test("a shell call running apply_patch is applied in-process, argv and heredoc forms alike", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "hello\n");
  const heredoc = `cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: made.txt\n+made\n*** End Patch\nEOF`;
  await withServer(
    [
      turn(fnCall("shell", { command: ["apply_patch", UPDATE_A] }, "call_argv")),
      turn(fnCall("shell", { command: ["bash", "-lc", heredoc] }, "call_heredoc")),
      turn(fnCall("shell", { command: ["bash", "-lc", UPDATE_A] }, "call_bare")),
      turn(text("done")),
    ],
    async (server) => {
      const r = await exec(server, ["-m", "gpt-4.1", ...WRITE, "--json", "edit"], { cwd: ws.dir, home: ws.home });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello world\n");
      assert.match(toolOutput(server, "call_argv"), /^\{"output":"Success\. Updated the following files:\\nM a\.txt\\n"/);
      // `cd sub &&` moves the patch's base directory; the folder is created for the new file.
      assert.equal(readFileSync(join(ws.dir, "sub", "made.txt"), "utf8"), "made\n");
      assert.match(toolOutput(server, "call_heredoc"), /A made\.txt/);
      // A patch given to the shell without `apply_patch` is not run as a script.
      assert.equal(
        toolOutput(server, "call_bare"),
        'apply_patch verification failed: patch detected without explicit call to apply_patch. Rerun as ["apply_patch", "<patch>"]',
      );
      assert.ok(!r.stdout.includes('"command_execution"'), "no command was executed");
    },
  );
});

void test("shell_command models (gpt-5-codex) get the plain-text layout for an intercepted heredoc", async () => {
  const ws = makeWorkspace();
  const script = "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: notes/todo.md\n+- ship it\n*** End Patch\nPATCH";
  await withServer([turn(fnCall("shell_command", { command: script }, "call_s")), turn(text("done"))], async (server) => {
    const r = await exec(server, ["-m", "gpt-5-codex", ...WRITE, "add notes"], { cwd: ws.dir, home: ws.home });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(readFileSync(join(ws.dir, "notes/todo.md"), "utf8"), "- ship it\n");
    assert.equal(
      toolOutput(server, "call_s"),
      "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA notes/todo.md\n",
    );
  });
});

void test("codex-ts apply_patch applies a patch from its argument or stdin and exits like the reference", async () => {
  const ws = makeWorkspace();
  writeFileSync(join(ws.dir, "a.txt"), "hello\n");
  const fromArg = await runCli(["apply_patch", UPDATE_A], { cwd: ws.dir, home: ws.home });
  assert.deepEqual(fromArg, { code: 0, stdout: "Success. Updated the following files:\nM a.txt\n", stderr: "" });
  assert.equal(readFileSync(join(ws.dir, "a.txt"), "utf8"), "hello world\n");

  const add = "*** Begin Patch\n*** Add File: dir/b.txt\n+b\n*** End Patch\n";
  const fromStdin = await runCli(["apply_patch"], { cwd: ws.dir, home: ws.home, stdin: add });
  assert.deepEqual(fromStdin, { code: 0, stdout: "Success. Updated the following files:\nA dir/b.txt\n", stderr: "" });

  const failing = await runCli(["apply_patch", UPDATE_A], { cwd: ws.dir, home: ws.home });
  assert.equal(failing.code, 1);
  assert.equal(failing.stderr, `Failed to find expected lines in ${join(ws.dir, "a.txt")}:\nhello\n`);
  const invalid = await runCli(["apply_patch", "*** Begin Patch\n*** Frob: x\n*** End Patch"], { cwd: ws.dir, home: ws.home });
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /^Invalid patch hunk on line 2: '\*\*\* Frob: x' is not a valid hunk header/);

  const none = await runCli(["apply_patch"], { cwd: ws.dir, home: ws.home, stdin: "" });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^Usage: codex-ts apply_patch/);
  const two = await runCli(["apply_patch", "a", "b"], { cwd: ws.dir, home: ws.home });
  assert.deepEqual(two, { code: 2, stdout: "", stderr: "Error: apply_patch accepts exactly one PATCH argument.\n" });
});
