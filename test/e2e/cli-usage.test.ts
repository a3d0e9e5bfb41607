/**
 * End-to-end: command-line mistakes as a user of the real CLI meets them. Each stops before
 * anything runs with exit status 2 (as the reference), one line naming the problem and the
 * nearest valid spelling, the command's usage, and where to read more; nothing on stdout.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { CLI_PATH, makeWorkspace, runCli, testEnv } from "../support/cli.js";

const ws = makeWorkspace();
const run = (...args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: ws.dir, home: ws.home, stdin: "" });

void test("an unknown flag: exit 2, the nearest flag, usage and --help pointer", async () => {
  const r = await run("exec", "--jsn", "hi");
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    [
      "error: unknown option '--jsn' (did you mean --json?)",
      "",
      "Usage: codex-ts exec [OPTIONS] [PROMPT]",
      "       codex-ts exec [OPTIONS] <COMMAND> [ARGS]",
      "Try 'codex-ts exec --help' for more information.",
      "",
    ].join("\n"),
  );
});

void test("a bad -s / --color value lists the choices and suggests the nearest one", async () => {
  const sandbox = await run("exec", "-s", "workspace-writ", "hi");
  assert.equal(sandbox.code, 2);
  assert.match(sandbox.stderr, /^error: invalid value 'workspace-writ' for --sandbox <mode>: expected one of read-only, workspace-write, danger-full-access \(did you mean workspace-write\?\)\n/);
  const color = await run("exec", "--color", "alway", "hi");
  assert.equal(color.code, 2);
  assert.match(color.stderr, /^error: invalid value 'alway' for --color <when>: expected one of always, never, auto \(did you mean always\?\)\n/);
  const far = await run("sandbox", "-s", "bogus", "--", "true");
  assert.equal(far.code, 2);
  assert.match(far.stderr, /^error: invalid value 'bogus' for --sandbox <mode>: expected one of read-only, workspace-write, danger-full-access\n\nUsage: codex-ts sandbox \[OPTIONS\] <COMMAND\.\.\.>\n/);
});

void test("an unknown subcommand suggests the nearest one", async () => {
  const top = await run("exce");
  assert.equal(top.code, 2);
  assert.match(top.stderr, /^error: unknown subcommand 'exce' \(did you mean exec\?\)\n\nUsage: codex-ts \[OPTIONS\] /);
  assert.match(top.stderr, /Try 'codex-ts --help' for more information\.\n$/);
  const nested = await run("mcp", "lst");
  assert.equal(nested.code, 2);
  assert.match(nested.stderr, /^error: unknown subcommand 'lst' \(did you mean list\?\)\n\nUsage: codex-ts mcp \[OPTIONS\] <COMMAND>\n/);
  const resume = await run("exec", "resme");
  assert.equal(resume.code, 2);
  assert.match(resume.stderr, /^error: unknown subcommand 'resme' \(did you mean resume\?\)\n/);
});

void test("a prompt of several unquoted words gets a hint to quote it", async () => {
  const r = await run("exec", "fix", "the", "bug");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^error: unexpected argument 'the' \(a prompt of several words goes in quotes: codex-ts exec "fix the bug"\)\n/);
});

void test("--help still prints to stdout and exits 0; a missing subcommand shows help and exits 2", async () => {
  const help = await run("exec", "--help");
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--sandbox <mode>/);
  const mcp = await run("mcp");
  assert.equal(mcp.code, 2);
  assert.match(mcp.stderr, /Usage: codex-ts mcp/);
});

void test("a reader that closes the pipe early (codex-ts --help | head) ends the run quietly", async () => {
  // `true` exits without reading, so every write of the help text meets a closed pipe.
  const r = spawnSync("sh", ["-c", `"${process.execPath}" "${CLI_PATH}" --help | true`], { cwd: ws.dir, env: testEnv(ws.home), encoding: "utf8" });
  assert.equal(r.status, 0);
  assert.equal(r.stderr, "", "no stack trace for a closed pipe");
  // --version and apply_patch write to the descriptor itself, not through process.stdout.
  const patch = "*** Begin Patch\n*** Add File: piped.txt\n+x\n*** End Patch\n";
  for (const args of ["--version", `apply_patch '${patch}'`]) {
    // The reader closes its end at once, long before Node has started; pipefail gives codex-ts's status.
    const closed = spawnSync("bash", ["-c", `set -o pipefail; "${process.execPath}" "${CLI_PATH}" ${args} | (exec 0<&-; sleep 0.2)`], { cwd: ws.dir, env: testEnv(ws.home), encoding: "utf8" });
    assert.equal(closed.status, 0, `${args}: ${closed.stderr}`);
    assert.equal(closed.stderr, "", `no stack trace for a closed pipe: ${args}`);
  }
});
