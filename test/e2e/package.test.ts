/**
 * What `npm pack` publishes, and that it runs where users get it from: the tarball installed
 * globally into a temporary prefix, the tarball installed as a project's dependency, and the
 * checkout linked with `npm link`. Each one answers --version, applies a patch, runs an `exec`
 * turn that reaches the lazily loaded parts resolved from node_modules beside the bundle (the
 * tree-sitter grammar's WebAssembly, node-pty), and draws the interactive UI with a highlighted
 * code block. The bundle must be built first (`npm run build`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrlArgs, jsonLines, makeWorkspace, runCli, tuiArgs } from "../support/cli.js";
import { callOutputText, fnCall, startModelServer, text, turn } from "../support/model-server.js";
import { KEY, PtySession } from "../support/pty.js";
import { STDIO_SERVER_PATH } from "../fixtures/mcp/stdio-server.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const BIN = "dist/bundle/codex-ts.cjs";
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; bin: Record<string, string> };

/** npm as a user runs it, but offline where it can be: the packages npm ci fetched are in its cache. */
function npm(args: string[], opts: { cwd: string; env?: Record<string, string> }): string {
  const cache = process.env.npm_config_cache ?? execFileSync("npm", ["config", "get", "cache"], { encoding: "utf8" }).trim();
  return execFileSync("npm", [...args, "--prefer-offline", `--cache=${cache}`, "--no-audit", "--no-fund", "--no-update-notifier", "--ignore-scripts"], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

void test("npm pack ships the bundle, with neither the tsc build nor a test file", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
  assert.equal(pkg.bin["codex-ts"], BIN);
  assert.ok(files.includes(BIN), "the binary is shipped");
  assert.ok(files.includes("dist/bundle/commands.mjs"), "the command tree is shipped");
  assert.ok(files.some((f) => f.startsWith("dist/bundle/chunks/")), "the chunks are shipped");
  assert.deepEqual(
    files.filter((f) => /\.test\.|(^|\/)test\/|^dist\/src\/|meta\.json$/.test(f)),
    [],
  );
});

const PATCH = "*** Begin Patch\n*** Add File: from-cli.txt\n+applied by the installed binary\n*** End Patch\n";
const HEREDOC = "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: from-model.txt\n+applied through the bash grammar\n*** End Patch\nEOF";

/** Everything a user of `bin` does first, checked from that binary. */
async function useInstalled(bin: string, how: string): Promise<void> {
  const ws = makeWorkspace({ config: `[mcp_servers.fx]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([STDIO_SERVER_PATH, "--name", "fx"])}\n` });
  const version = await runCli(["--version"], { cwd: ws.dir, home: ws.home, cli: bin });
  assert.equal(version.stdout, `codex-ts ${pkg.version}\n`, `${how}: --version`);

  const patched = await runCli(["apply_patch", PATCH], { cwd: ws.dir, home: ws.home, cli: bin });
  assert.equal(patched.code, 0, `${how}: apply_patch: ${patched.stderr}`);
  assert.equal(readFileSync(join(ws.dir, "from-cli.txt"), "utf8"), "applied by the installed binary\n");

  // The heredoc is recognised with tree-sitter's bash grammar (WebAssembly, from node_modules);
  // a tty command starts in a pseudo-terminal (node-pty's native module); an MCP tool's
  // arguments are checked against its schema (Ajv, a CommonJS package loaded on use).
  const server = await startModelServer([
    turn(fnCall("exec_command", { cmd: HEREDOC }, "call_heredoc")),
    turn(fnCall("mcp__fx__echo", { text: "through the bundle" }, "call_mcp")),
    turn(fnCall("exec_command", { cmd: "test -t 0 && echo on-a-terminal", tty: true }, "call_tty")),
    turn(text("all done")),
  ]);
  try {
    const r = await runCli(["exec", "--json", "-s", "danger-full-access", ...baseUrlArgs(server.url), "go"], { cwd: ws.dir, home: ws.home, cli: bin });
    assert.equal(r.code, 0, `${how}: exec: ${r.stderr}`);
    assert.equal(readFileSync(join(ws.dir, "from-model.txt"), "utf8"), "applied through the bash grammar\n");
    assert.match(callOutputText(server, "call_tty"), /on-a-terminal/, `${how}: the tty command`);
    assert.match(callOutputText(server, "call_mcp"), /echo: through the bundle/, `${how}: the MCP tool`);
    assert.ok(jsonLines(r.stdout).some((e) => e.type === "turn.completed"), `${how}: exec finished its turn`);
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }

  // The interactive UI, its markdown and the highlighter, each loaded on use. The highlighter
  // starts loading with the first turn, so the second answer's code block is coloured.
  const block = "```ts\nconst answer: number = 42;\n```";
  const tuiServer = await startModelServer([turn(text("first answer")), turn(text(`Here:\n\n${block}`))]);
  const ui = new PtySession(tuiArgs(tuiServer.url), { cwd: ws.dir, home: ws.home, command: bin, cols: 100, rows: 30, env: { NO_COLOR: undefined } });
  try {
    await ui.waitFor("Enter to send");
    await ui.type("hello");
    ui.write(KEY.enter);
    await ui.waitFor("first answer");
    await ui.type("show me");
    ui.write(KEY.enter);
    await ui.waitFor("const answer: number = 42;");
    // eslint-disable-next-line no-control-regex
    assert.match(ui.output, /\x1b\[[0-9;]*mconst\b/, `${how}: the code block is coloured`);
    ui.write(KEY.ctrlD);
    assert.equal(await ui.exit(), 0, `${how}: the UI exits cleanly`);
  } finally {
    ui.kill();
    await tuiServer.close();
  }
}

void test("the packed tarball installed globally or as a dependency, and the checkout linked with npm link, all run", { timeout: 300_000 }, async (t) => {
  assert.ok(existsSync(join(ROOT, BIN)), `${BIN} is missing: run npm run build first`);
  const scratch = mkdtempSync(join(tmpdir(), "codex-ts-package-"));
  // Two installs weigh a few hundred MB: removed at the end, whatever happened.
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", scratch], { cwd: ROOT })) as Array<{ filename: string }>;
  const tarball = join(scratch, packed[0]?.filename ?? "");

  const globalPrefix = join(scratch, "global");
  npm(["install", "--global", `--prefix=${globalPrefix}`, tarball], { cwd: scratch });
  await useInstalled(join(globalPrefix, "bin", "codex-ts"), "global install");

  const project = join(scratch, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "uses-codex-ts", version: "1.0.0", private: true }));
  npm(["install", tarball], { cwd: project });
  await useInstalled(join(project, "node_modules", ".bin", "codex-ts"), "dependency");

  // npm link makes two links and installs nothing: the checkout's own node_modules serve it.
  const linkPrefix = join(scratch, "linked");
  npm(["link"], { cwd: ROOT, env: { npm_config_prefix: linkPrefix } });
  assert.equal(realpathSync(join(linkPrefix, "lib", "node_modules", "codex-ts")), realpathSync(ROOT));
  await useInstalled(join(linkPrefix, "bin", "codex-ts"), "npm link");
});
