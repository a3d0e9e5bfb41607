import { test, after } from "node:test";
import assert from "node:assert/strict";
import { formatUnifiedExecResponse } from "./format.js";
import type { ExecProcess, ExecProcessSpawner, ExecProcessSpec } from "./pipe-process.js";
import { processLimitWarning, UnifiedExecError, UnifiedExecManager } from "./unified-exec.js";
import { isAlive } from "../../test/support/process.js";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" } as Record<string, string>;
const manager = new UnifiedExecManager();
const start = (cmd: string, extra: { yieldTimeMs?: number; tty?: boolean; maxOutputTokens?: number } = {}) =>
  manager.start({ argv: ["/bin/bash", "-c", cmd], cwd: process.cwd(), env: ENV, ...extra });

after(() => manager.terminateAll());

/**
 * The pid a still-running session printed first. On a loaded machine the shell may not have
 * printed within the yield time, so poll until it has.
 */
async function printedPid(r: { output: string; sessionId: number | null }): Promise<number> {
  let output = r.output;
  while (output.trim() === "" && r.sessionId !== null) {
    output += (await manager.writeStdin({ sessionId: r.sessionId, chars: "" })).output;
  }
  const pid = Number(output.trim());
  assert.ok(Number.isInteger(pid) && pid > 0, `a pid was printed: ${JSON.stringify(output)}`);
  return pid;
}


void test("a quick command returns its exit code and output, and is not kept", async () => {
  const r = await start("echo hello; exit 4");
  assert.equal(r.exitCode, 4);
  assert.equal(r.sessionId, null);
  assert.equal(r.output, "hello\n");
  assert.equal(r.originalTokenCount, 2);
  assert.match(r.chunkId, /^[0-9a-f]{6}$/);
  assert.ok(r.wallTimeSeconds < 5);
  assert.deepEqual(manager.sessionIds, []);
  assert.match(formatUnifiedExecResponse(r), /^Chunk ID: [0-9a-f]{6}\nWall time: \d+\.\d{4} seconds\nProcess exited with code 4\nOriginal token count: 2\nOutput:\nhello\n$/);
});

void test("the argv runs as given, without a shell around it", async () => {
  const r = await manager.start({ argv: ["echo", "a  b", "$HOME"], cwd: process.cwd(), env: ENV });
  assert.equal(r.exitCode, 0);
  assert.equal(r.output, "a  b $HOME\n");
});

void test("a slow command yields a session id; polling later returns the rest and the exit code", async () => {
  const first = await start("echo begin; sleep 0.6; echo end", { yieldTimeMs: 100 }); // clamped up to 250 ms
  assert.equal(first.exitCode, null);
  assert.ok(first.sessionId !== null);
  assert.ok(first.wallTimeSeconds >= 0.24);
  // On a loaded machine bash may not have printed yet; what matters is that nothing is lost or repeated.
  assert.ok(["", "begin\n"].includes(first.output), JSON.stringify(first.output));
  assert.match(formatUnifiedExecResponse(first), new RegExp(`\nProcess running with session ID ${first.sessionId}\n`));

  const started = Date.now();
  const second = await manager.writeStdin({ sessionId: first.sessionId, chars: "" });
  assert.ok(Date.now() - started < 3000, "a poll returns as soon as the process exits");
  assert.equal(first.output + second.output, "begin\nend\n");
  assert.equal(second.exitCode, 0);
  assert.equal(second.sessionId, null);
  await assert.rejects(manager.writeStdin({ sessionId: first.sessionId }), /Unknown process id/);
});

void test("writing to stdin reaches the process and returns only new output", async () => {
  const catSession = await start("cat", { yieldTimeMs: 250 });
  assert.ok(catSession.sessionId !== null);
  const echoed = await manager.writeStdin({ sessionId: catSession.sessionId, chars: "ping\n" });
  assert.equal(echoed.output, "ping\n");
  assert.equal(echoed.sessionId, catSession.sessionId);
  const again = await manager.writeStdin({ sessionId: catSession.sessionId, chars: "pong\n" });
  assert.equal(again.output, "pong\n");

  const reader = await start('read -r line; echo "got:$line"', { yieldTimeMs: 250 });
  assert.ok(reader.sessionId !== null);
  const answered = await manager.writeStdin({ sessionId: reader.sessionId, chars: "42\n", yieldTimeMs: 2000 });
  assert.equal(answered.output, "got:42\n");
  assert.equal(answered.exitCode, 0);
  assert.equal(answered.sessionId, null);
  assert.ok(manager.terminate(catSession.sessionId));
});

void test("an unknown session id is an error the model can read", async () => {
  await assert.rejects(
    manager.writeStdin({ sessionId: 123, chars: "x" }),
    (err: unknown) => err instanceof UnifiedExecError && err.kind === "unknown_process" && err.message === "Unknown process id 123",
  );
});

void test("output beyond max_output_tokens is truncated with the reference header", async () => {
  const r = await start("head -c 4000 /dev/zero | tr '\\0' x", { maxOutputTokens: 10 });
  assert.equal(r.exitCode, 0);
  assert.equal(r.originalTokenCount, 1000);
  assert.ok(r.output.startsWith("Warning: truncated output (original token count: 1000)\nTotal output lines: 1\n\n"));
  assert.match(r.output, /x{20}…990 tokens truncated…x{20}$/);
});

void test("a background grandchild holding the pipe does not stall the call", async () => {
  const started = Date.now();
  const r = await start("sleep 5 & echo $!", { yieldTimeMs: 10_000 });
  assert.ok(Date.now() - started < 2000);
  assert.equal(r.exitCode, 0);
  process.kill(Number(r.output.trim()), "SIGKILL");
});

void test("terminateAll kills every live process group", async () => {
  const a = await start("echo $$; sleep 30", { yieldTimeMs: 250 });
  const b = await start("sleep 30 & sleep 30", { yieldTimeMs: 250 });
  assert.ok(a.sessionId !== null && b.sessionId !== null);
  const pid = await printedPid(a);
  assert.ok(isAlive(pid));
  manager.terminateAll();
  assert.deepEqual(manager.sessionIds, []);
  // Generous: a loaded machine can take a while to deliver the kill and update /proc.
  const deadline = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(isAlive(pid), false);
  await assert.rejects(manager.writeStdin({ sessionId: a.sessionId, chars: "" }), UnifiedExecError);
});

void test("spawn failures surface as create errors", async () => {
  await assert.rejects(
    manager.start({ argv: ["true"], cwd: "/no/such/dir", env: ENV }),
    (err: unknown) => err instanceof UnifiedExecError && /^Failed to create unified exec process: /.test(err.message),
  );
});

void test("the session-limit warning uses the reference wording", () => {
  assert.equal(
    processLimitWarning(61),
    "Warning: The maximum number of unified exec processes you can keep open is 60 and you currently have 61 processes open. Reuse older processes or close them to prevent automatic pruning of old processes",
  );
});

async function waitUntilDead(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return !isAlive(pid);
}

void test("tty: true runs the command in a terminal; without it stdin is a pipe", async () => {
  const inTty = await start("[ -t 0 ] && [ -t 1 ] && echo tty; stty size", { tty: true });
  assert.equal(inTty.exitCode, 0);
  assert.equal(inTty.output, "tty\r\n24 80\r\n");
  const piped = await start("[ -t 0 ] || echo notty", { tty: false });
  assert.equal(piped.exitCode, 0);
  assert.equal(piped.output, "notty\n");
});

void test("tty: a prompt shows up, and the answer written later reaches the program", async () => {
  const first = await start('read -p "name? " n; echo hello $n', { tty: true, yieldTimeMs: 250 });
  assert.ok(first.sessionId !== null);
  assert.equal(first.exitCode, null);
  assert.equal(first.output, "name? ");
  const answered = await manager.writeStdin({ sessionId: first.sessionId, chars: "bob\n", yieldTimeMs: 3000 });
  // The terminal echoes what was typed, then the program answers.
  assert.equal(answered.output, "bob\r\nhello bob\r\n");
  assert.equal(answered.exitCode, 0);
  assert.equal(answered.sessionId, null);
});

void test("tty: cat sees each line as it is typed, across calls", async () => {
  // A shell leads the session: a program that is itself the session leader and exits right after
  // reading end-of-file is sometimes reported as killed by SIGHUP (the terminal hangs up on it).
  const cat = await start('cat; echo "cat exited $?"', { tty: true, yieldTimeMs: 250 });
  assert.ok(cat.sessionId !== null);
  assert.equal(cat.output, "");
  const one = await manager.writeStdin({ sessionId: cat.sessionId, chars: "ping\n" });
  assert.equal(one.output, "ping\r\nping\r\n");
  const two = await manager.writeStdin({ sessionId: cat.sessionId, chars: "pong\n" });
  assert.equal(two.output, "pong\r\npong\r\n");
  // Ctrl-D at the start of a line is end-of-file for the terminal's reader.
  const done = await manager.writeStdin({ sessionId: cat.sessionId, chars: "\u0004", yieldTimeMs: 3000 });
  assert.equal(done.output, "cat exited 0\r\n");
  assert.equal(done.exitCode, 0);
  assert.equal(done.sessionId, null);
});

void test("tty: a python REPL keeps its state between calls", async () => {
  const repl = await manager.start({
    argv: ["python3", "-i", "-q"],
    cwd: process.cwd(),
    env: { ...ENV, PYTHON_BASIC_REPL: "1" },
    tty: true,
    yieldTimeMs: 1000,
  });
  assert.ok(repl.sessionId !== null, repl.output);
  assert.match(repl.output, />>> $/);
  const set = await manager.writeStdin({ sessionId: repl.sessionId, chars: "x = 6 * 7\n", yieldTimeMs: 500 });
  assert.match(set.output, /x = 6 \* 7\r\n>>> $/);
  const shown = await manager.writeStdin({ sessionId: repl.sessionId, chars: "print(x)\n", yieldTimeMs: 500 });
  assert.match(shown.output, /print\(x\)\r\n42\r\n>>> $/);
  const quit = await manager.writeStdin({ sessionId: repl.sessionId, chars: "raise SystemExit(3)\n", yieldTimeMs: 3000 });
  assert.equal(quit.exitCode, 3);
  assert.equal(quit.sessionId, null);
});

void test("tty: exit codes, including death by signal", async () => {
  assert.equal((await start("exit 7", { tty: true })).exitCode, 7);
  assert.equal((await start("kill -TERM $$", { tty: true })).exitCode, 143);
  assert.equal((await start("kill -KILL $$", { tty: true })).exitCode, 137);
});

void test("tty: terminate and terminateAll kill the session and its children", async () => {
  const a = await start("sleep 30 & echo $!; wait", { tty: true, yieldTimeMs: 250 });
  const b = await start("sleep 30 & echo $!; wait", { tty: true, yieldTimeMs: 250 });
  assert.ok(a.sessionId !== null && b.sessionId !== null);
  const markerA = await printedPid(a);
  const markerB = await printedPid(b);
  assert.ok(isAlive(markerA) && isAlive(markerB));

  assert.ok(manager.terminate(a.sessionId));
  assert.ok(await waitUntilDead(markerA), "terminate killed the child's children");
  manager.terminateAll(); // interrupt / shutdown
  assert.deepEqual(manager.sessionIds, []);
  assert.ok(await waitUntilDead(markerB), "terminateAll killed the child's children");
  await assert.rejects(manager.writeStdin({ sessionId: b.sessionId, chars: "x" }), UnifiedExecError);
});

void test("tty: a missing program or directory is a create error", async () => {
  await assert.rejects(
    manager.start({ argv: ["no-such-program-xyz"], cwd: process.cwd(), env: ENV, tty: true }),
    (err: unknown) => err instanceof UnifiedExecError && err.message === "Failed to create unified exec process: no-such-program-xyz: ENOENT",
  );
  await assert.rejects(
    manager.start({ argv: ["true"], cwd: "/no/such/dir", env: ENV, tty: true }),
    (err: unknown) => err instanceof UnifiedExecError && err.kind === "create_failed",
  );
});

void test("the tty flag picks the PTY spawner; both can be injected", async () => {
  const seen: { kind: string; argv: string[] }[] = [];
  const fake =
    (kind: string): ExecProcessSpawner =>
    (spec: ExecProcessSpec) => {
      seen.push({ kind, argv: spec.argv });
      spec.onOutput("stdout", Buffer.from(`${kind}\n`));
      const proc: ExecProcess = {
        pid: undefined,
        exitCode: 0,
        hasExited: true,
        outputClosed: true,
        write: () => Promise.reject(new Error("closed")),
        closeStdin: () => undefined,
        resize: () => undefined,
        terminate: () => undefined,
      };
      return Promise.resolve(proc);
    };
  const m = new UnifiedExecManager({ spawner: fake("pipe"), ptySpawner: fake("pty") });
  const base = { cwd: process.cwd(), env: ENV };
  assert.equal((await m.start({ ...base, argv: ["a"], tty: true })).output, "pty\n");
  assert.equal((await m.start({ ...base, argv: ["b"], tty: false })).output, "pipe\n");
  assert.equal((await m.start({ ...base, argv: ["c"] })).output, "pipe\n");
  assert.deepEqual(seen, [
    { kind: "pty", argv: ["a"] },
    { kind: "pipe", argv: ["b"] },
    { kind: "pipe", argv: ["c"] },
  ]);
});
