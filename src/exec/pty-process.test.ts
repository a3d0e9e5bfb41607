import { test, after } from "node:test";
import assert from "node:assert/strict";
import type { ExecProcess, ExecProcessSpec } from "./pipe-process.js";
import { createPtySpawner, PTY_COLS, PTY_ROWS, spawnPtyProcess } from "./pty-process.js";
import { isAlive } from "../../test/support/process.js";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", TERM: "dumb" } as Record<string, string>;
const live: ExecProcess[] = [];

after(() => {
  for (const proc of live) proc.terminate();
});

interface Run {
  proc: ExecProcess;
  output: () => string;
  /** Resolves once the output is closed for good. */
  closed: Promise<void>;
  /** Resolves when the output contains `text`, rejects after `ms`. */
  waitFor: (text: string, ms?: number) => Promise<void>;
  streams: Set<string>;
}

async function run(argv: string[], overrides: Partial<ExecProcessSpec> = {}): Promise<Run> {
  let output = "";
  const streams = new Set<string>();
  const listeners = new Set<() => void>();
  let markClosed = (): void => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const proc = await spawnPtyProcess({
    argv,
    cwd: process.cwd(),
    env: ENV,
    onOutput: (stream, chunk) => {
      assert.ok(Buffer.isBuffer(chunk));
      streams.add(stream);
      output += chunk.toString("utf8");
      for (const listener of listeners) listener();
    },
    onStateChange: (outputClosed) => {
      if (outputClosed) markClosed();
    },
    ...overrides,
  });
  live.push(proc);
  const waitFor = (text: string, ms = 5000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!output.includes(text)) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${JSON.stringify(text)}; got ${JSON.stringify(output)}`));
      }, ms);
      listeners.add(check);
      check();
    });
  return { proc, output: () => output, closed, waitFor, streams };
}


async function waitUntilDead(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return !isAlive(pid);
}

void test("the command sees a terminal of the fixed size on all three streams; output is stdout", async () => {
  const r = await run(["/bin/bash", "-c", "[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo tty; stty size; echo err >&2; exit 3"]);
  await r.closed;
  assert.equal(r.output(), `tty\r\n${PTY_ROWS} ${PTY_COLS}\r\nerr\r\n`);
  assert.deepEqual([...r.streams], ["stdout"]);
  assert.equal(r.proc.hasExited, true);
  assert.equal(r.proc.outputClosed, true);
  assert.equal(r.proc.exitCode, 3);
  assert.ok(typeof r.proc.pid === "number" && r.proc.pid > 0);
});

void test("argv is passed without a shell, with the given cwd and environment", async () => {
  const r = await run(["/bin/sh", "-c", 'pwd; echo "$MARK" "$1"', "sh", "a  b"], { cwd: "/tmp", env: { ...ENV, MARK: "m1" } });
  await r.closed;
  assert.equal(r.output(), "/tmp\r\nm1 a  b\r\n");
  assert.equal(r.proc.exitCode, 0);
});

void test("an interactive prompt is answered by a later write", async () => {
  const r = await run(["/bin/bash", "-c", 'read -p "name? " n; echo hello $n']);
  await r.waitFor("name? ");
  assert.equal(r.proc.hasExited, false);
  await r.proc.write("bob\n");
  await r.waitFor("hello bob");
  await r.closed;
  assert.equal(r.output(), "name? bob\r\nhello bob\r\n");
  assert.equal(r.proc.exitCode, 0);
});

void test("cat echoes input; writes after the exit are rejected", async () => {
  // bash leads the session (see the cat test in unified-exec.test.ts for why).
  const r = await run(["/bin/bash", "-c", 'cat; echo "cat exited $?"']);
  await r.proc.write("one\n");
  await r.waitFor("one\r\none\r\n");
  await r.proc.write("two\n");
  await r.waitFor("two\r\ntwo\r\n");
  await r.proc.write("\u0004"); // end of file on an empty line
  await r.closed;
  assert.equal(r.output(), "one\r\none\r\ntwo\r\ntwo\r\ncat exited 0\r\n");
  assert.equal(r.proc.exitCode, 0);
  await assert.rejects(r.proc.write("late\n"), /stdin is closed/);
});

void test("a signal death reports 128 + the signal number", async () => {
  const term = await run(["/bin/bash", "-c", "kill -TERM $$"]);
  await term.closed;
  assert.equal(term.proc.exitCode, 143);
  const killed = await run(["/bin/bash", "-c", "kill -KILL $$"]);
  await killed.closed;
  assert.equal(killed.proc.exitCode, 137);
});

void test("terminate kills the whole process group, children included", async () => {
  const r = await run(["/bin/bash", "-c", "sleep 30 & echo marker=$!; wait"]);
  await r.waitFor("\r\n");
  const marker = Number(/marker=(\d+)/.exec(r.output())?.[1]);
  assert.ok(marker > 0 && isAlive(marker));
  r.proc.terminate();
  await r.closed;
  assert.equal(r.proc.exitCode, 137);
  assert.ok(await waitUntilDead(marker), "the background child died with its session");
  r.proc.terminate(); // a second call after the exit is harmless
});

void test("a missing program, an empty argv or a bad cwd rejects with a readable message", async () => {
  await assert.rejects(run(["no-such-program-xyz"]), /^Error: no-such-program-xyz: ENOENT$/);
  await assert.rejects(run(["./no-such-script.sh"]), /no-such-script\.sh: ENOENT/);
  await assert.rejects(run([]), /missing command line/);
  await assert.rejects(run(["true"], { cwd: "/no/such/dir" }), /working directory is not accessible: \/no\/such\/dir \(ENOENT\)/);
  await assert.rejects(run(["true"], { cwd: "/etc/hostname" }), /working directory is not a directory|not accessible/);
});

void test("a native module that fails to load becomes a rejected spawn, retried next time", async () => {
  let attempts = 0;
  const spawner = createPtySpawner(() => {
    attempts++;
    return Promise.reject(new Error("pty.node: invalid ELF header"));
  });
  const spec: ExecProcessSpec = { argv: ["true"], cwd: process.cwd(), env: ENV, onOutput: () => undefined, onStateChange: () => undefined };
  await assert.rejects(spawner(spec), {
    message: "pseudo-terminal support is unavailable (could not load node-pty: pty.node: invalid ELF header)",
  });
  await assert.rejects(spawner(spec), /pseudo-terminal support is unavailable/);
  assert.equal(attempts, 2);
});
