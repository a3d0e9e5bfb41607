/**
 * End-to-end: the shell snapshot through the real `codex-ts exec`, a scratch HOME whose start-up
 * files export variables, extend PATH, define a function and count how often they run, and the
 * scripted model server asking for commands.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callOutputText, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { exec, makeWorkspace, withServer } from "../support/cli.js";
import { newSession, until } from "../support/session.js";

const ZSH = ["/usr/bin/zsh", "/bin/zsh"].find((p) => existsSync(p));
const PROBE = 'echo "[$FROM_PROFILE] [$FROM_RC]"; mytool; greet model';

interface Home {
  dir: string;
  /** How many times each counted start-up file ran. */
  runs(file: string): number;
}

/** A HOME whose profile and rc file each append to a counter and export something. */
function scratchHome(shell: "bash" | "zsh"): Home {
  const dir = mkdtempSync(join(tmpdir(), "snapshot-home-"));
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", "mytool"), "#!/bin/sh\necho mytool ran\n", { mode: 0o755 });
  const [profile, rc] = shell === "bash" ? [".bash_profile", ".bashrc"] : [".zprofile", ".zshrc"];
  writeFileSync(join(dir, profile), `echo x >> "$HOME/${profile}.runs"\nexport FROM_PROFILE=profile\n`);
  writeFileSync(
    join(dir, rc),
    `echo x >> "$HOME/${rc}.runs"\nexport FROM_RC=rc\nexport PATH="$HOME/bin:$PATH"\ngreet() { echo "hello $1"; }\nalias hi='echo aliased'\n`,
  );
  return {
    dir,
    runs: (file) => (existsSync(join(dir, `${file}.runs`)) ? readFileSync(join(dir, `${file}.runs`), "utf8").split("\n").length - 1 : 0),
  };
}

const commandTurns = (tool: "shell_command" | "exec_command", count: number, script = PROBE) => [
  ...Array.from({ length: count }, (_, i) => turn(fnCall(tool, tool === "shell_command" ? { command: script } : { cmd: script }, `call_${i}`))),
  turn(text("done")),
];

void test("bash: commands see what the start-up files set up, and those files run once per session", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  await withServer(commandTurns("shell_command", 3), async (server) => {
    const r = await exec(server, ["-s", "danger-full-access", "-m", "gpt-5.1-codex", "go"], {
      cwd: ws.dir,
      home: ws.home,
      env: { HOME: home.dir, SHELL: "/bin/bash" },
    });
    assert.equal(r.code, 0, r.stderr);
    for (const id of ["call_0", "call_1", "call_2"]) assert.match(callOutputText(server, id), /\[profile\] \[rc\]\nmytool ran\nhello model/);
    assert.doesNotMatch(r.stderr, /snapshot/i);
  });
  // Once, in the snapshot (the login profile, then the rc file as the reference sources it).
  assert.equal(home.runs(".bash_profile"), 1);
  assert.equal(home.runs(".bashrc"), 1);
  assert.deepEqual(readdirSync(join(ws.home, "shell_snapshots")), [], "the session removes its snapshot when it ends");
});

void test("exec_command uses the snapshot too; a command in another directory gets a login shell", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  mkdirSync(join(ws.dir, "sub"));
  const turns = [
    turn(fnCall("exec_command", { cmd: PROBE }, "call_0")),
    turn(fnCall("exec_command", { cmd: 'echo "[$FROM_PROFILE]"', workdir: "sub" }, "call_1")),
    turn(fnCall("exec_command", { cmd: 'echo "$TERM $PAGER $LANG"' }, "call_2")),
    turn(text("done")),
  ];
  await withServer(turns, async (server) => {
    const env = { HOME: home.dir, SHELL: "/bin/bash", TERM: "xterm-256color", PAGER: "less", LANG: "en_US.UTF-8" };
    const r = await exec(server, ["-s", "danger-full-access", "-m", "gpt-5.5", "go"], { cwd: ws.dir, home: ws.home, env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(callOutputText(server, "call_0"), /\[profile\] \[rc\]\nmytool ran\nhello model/);
    assert.match(callOutputText(server, "call_1"), /\[profile\]/);
    // The terminal's values are in the snapshot; exec_command's own (no pager, no colour) win.
    assert.match(callOutputText(server, "call_2"), /dumb cat C\.UTF-8/);
  });
  // The snapshot's run of both files, then the login shell in `sub` (its profile does not source .bashrc).
  assert.equal(home.runs(".bash_profile"), 2);
  assert.equal(home.runs(".bashrc"), 1);
});

void test("the shell tool: an argv the model wrote as bash -lc uses the snapshot; bash -c stays as it is", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  const turns = [
    turn(fnCall("shell", { command: ["bash", "-lc", PROBE] }, "call_0")),
    turn(fnCall("shell", { command: ["bash", "-c", 'echo "[$FROM_RC]"'] }, "call_1")),
    turn(text("done")),
  ];
  await withServer(turns, async (server) => {
    const r = await exec(server, ["-s", "danger-full-access", "-m", "o3", "go"], { cwd: ws.dir, home: ws.home, env: { HOME: home.dir, SHELL: "/bin/bash" } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(callOutputText(server, "call_0"), /\[profile\] \[rc\]\\nmytool ran\\nhello model/);
    assert.match(callOutputText(server, "call_1"), /\[\]/);
  });
  assert.equal(home.runs(".bashrc"), 1);
});

void test("shell_snapshot off: every command starts a login shell again", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  await withServer(commandTurns("shell_command", 3, 'echo "[$FROM_PROFILE]"'), async (server) => {
    const r = await exec(server, ["-s", "danger-full-access", "-m", "gpt-5.1-codex", "--disable", "shell_snapshot", "go"], {
      cwd: ws.dir,
      home: ws.home,
      env: { HOME: home.dir, SHELL: "/bin/bash" },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(callOutputText(server, "call_2"), /\[profile\]/);
  });
  assert.equal(home.runs(".bash_profile"), 3);
  assert.equal(home.runs(".bashrc"), 0);
  assert.equal(existsSync(join(ws.home, "shell_snapshots")), false);
});

void test("a snapshot that cannot be made: one warning, and commands run in login shells as before", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  // Where the snapshot folder should be there is a file, so the snapshot cannot be written.
  writeFileSync(join(ws.home, "shell_snapshots"), "");
  await withServer(commandTurns("shell_command", 2, 'echo "[$FROM_PROFILE]"'), async (server) => {
    const r = await exec(server, ["-s", "danger-full-access", "-m", "gpt-5.1-codex", "go"], { cwd: ws.dir, home: ws.home, env: { HOME: home.dir, SHELL: "/bin/bash" } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.split("Could not snapshot your shell").length - 1, 1, r.stderr);
    assert.match(r.stderr, /commands run in login shells/);
    assert.match(callOutputText(server, "call_1"), /\[profile\]/);
  });
  assert.equal(home.runs(".bash_profile"), 2);
});

void test("zsh: exports, PATH, functions and aliases from .zshrc, which runs once", { skip: ZSH ? false : "zsh is not installed" }, async () => {
  const home = scratchHome("zsh");
  const ws = makeWorkspace();
  await withServer(commandTurns("shell_command", 2, `${PROBE}; hi`), async (server) => {
    const r = await exec(server, ["-s", "danger-full-access", "-m", "gpt-5.1-codex", "go"], { cwd: ws.dir, home: ws.home, env: { HOME: home.dir, SHELL: ZSH, ZDOTDIR: undefined } });
    assert.equal(r.code, 0, r.stderr);
    for (const id of ["call_0", "call_1"]) assert.match(callOutputText(server, id), /\[profile\] \[rc\]\nmytool ran\nhello model\naliased/);
  });
  assert.equal(home.runs(".zprofile"), 1);
  assert.equal(home.runs(".zshrc"), 1);
});

void test("the read-only sandbox still lets a command source the snapshot", async () => {
  const home = scratchHome("bash");
  const ws = makeWorkspace();
  await withServer(commandTurns("shell_command", 1), async (server) => {
    const r = await exec(server, ["-s", "read-only", "-m", "gpt-5.1-codex", "go"], { cwd: ws.dir, home: ws.home, env: { HOME: home.dir, SHELL: "/bin/bash" } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(callOutputText(server, "call_0"), /\[profile\] \[rc\]\nmytool ran\nhello model/);
  });
  // The command itself could not have written the counter under read-only: only the snapshot did.
  assert.equal(home.runs(".bashrc"), 1);
});

void test("the user's own !cmd starts from the snapshot too", async () => {
  const home = scratchHome("bash");
  const codexHome = mkdtempSync(join(tmpdir(), "snapshot-codex-home-"));
  const server = await startModelServer([]);
  const session = newSession(server, {
    userShell: "/bin/bash",
    codexHome,
    // The policy's HOME is where the snapshot's login shell finds the start-up files.
    shellEnvironmentPolicy: { set: { HOME: home.dir } },
    modelSettings: { contextWindow: null, toolOutputTokenLimit: null, supportsReasoningSummaries: null, features: { shell_snapshot: true } },
  });
  try {
    for (let i = 0; i < 2; i++) {
      const id = session.submit({ type: "run_user_shell_command", command: PROBE });
      const events = await until(session, id, "task_complete");
      const end = events.find((e) => e.id === id && e.msg.type === "exec_command_end")?.msg;
      assert.ok(end?.type === "exec_command_end");
      assert.match(end.aggregated_output, /\[profile\] \[rc\]\nmytool ran\nhello model/);
      assert.deepEqual(end.command, ["/bin/bash", "-lc", PROBE], "events show the command as the user gave it");
    }
    await until(session, session.submit({ type: "shutdown" }), "shutdown_complete");
  } finally {
    await server.close();
  }
  assert.equal(home.runs(".bash_profile"), 1);
  assert.equal(home.runs(".bashrc"), 1);
  assert.deepEqual(readdirSync(join(codexHome, "shell_snapshots")), [], "shutdown removes the snapshot");
});
