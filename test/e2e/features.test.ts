/**
 * `codex-ts features list | enable | disable`: the reference's registry with stages and effective
 * values in its column layout, edits of config.toml that keep what was there, and unknown names
 * refused with a suggestion.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeWorkspace, runCli } from "../support/cli.js";

const row = (out: string, name: string): string[] | undefined =>
  out
    .split("\n")
    .find((l) => l.startsWith(`${name} `))
    ?.split(/ {2,}/);

void test("features list: every flag once, sorted, in aligned columns, with the reference's stages and defaults", async () => {
  const ws = makeWorkspace();
  const r = await runCli(["features", "list"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "", "nothing to warn about with an empty config");
  const lines = r.stdout.trimEnd().split("\n");
  // The reference's 215 flags and codex-ts's exec_policy and remote_compaction.
  assert.equal(lines.length, 217);
  const names = lines.map((l) => l.split(" ")[0] ?? "");
  assert.deepEqual(names, [...names].sort());
  // As the reference lays it out: the name padded to 41 columns, the stage to 19.
  assert.equal(lines.find((l) => l.startsWith("goals ")), `${"goals".padEnd(41)}${"stable".padEnd(19)}true`);
  assert.deepEqual(row(r.stdout, "agent_message_board"), ["agent_message_board", "under development", "false"]);
  assert.deepEqual(row(r.stdout, "multi_agent"), ["multi_agent", "deprecated", "true"]);
  assert.deepEqual(row(r.stdout, "collaboration_modes"), ["collaboration_modes", "removed", "true"]);
  assert.deepEqual(row(r.stdout, "memories"), ["memories", "stable", "false"]);
});

void test("features list shows effective values: config, profile, -c and --enable/--disable (aliases too); pinned ones stay", async () => {
  const ws = makeWorkspace({ config: '[features]\nmemories = true\n\n[profiles.p.features]\nshell_snapshot = false\n' });
  const r = await runCli(["features", "list", "-p", "p", "-c", "features.hooks=false", "--enable", "collab", "--disable", "goals", "--enable", "undo"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(row(r.stdout, "memories")?.[2], "true");
  assert.equal(row(r.stdout, "shell_snapshot")?.[2], "false");
  assert.equal(row(r.stdout, "hooks")?.[2], "false");
  assert.equal(row(r.stdout, "goals")?.[2], "false");
  assert.equal(row(r.stdout, "multi_agent")?.[2], "true");
  assert.equal(row(r.stdout, "undo")?.[2], "false", "undo is removed and pinned off, as in the reference");
  const dev = await runCli(["features", "list", "--enable", "code_mode"], { cwd: ws.dir, home: ws.home });
  assert.equal(row(dev.stdout, "code_mode")?.[2], "true");
  assert.match(dev.stderr, /Under-development features on: code_mode\./);
});

void test("features enable / disable edit config.toml in place; -p writes the profile's table", async () => {
  const ws = makeWorkspace({ config: '# my settings\nmodel = "gpt-5.5"\n\n[features]\nshell_snapshot = true # keep\n' });
  const file = join(ws.home, "config.toml");
  const on = await runCli(["features", "enable", "memories"], { cwd: ws.dir, home: ws.home });
  assert.equal(on.code, 0, on.stderr);
  assert.equal(on.stdout, "Enabled feature `memories` in config.toml.\n");
  const off = await runCli(["features", "disable", "shell_snapshot"], { cwd: ws.dir, home: ws.home });
  assert.equal(off.stdout, "Disabled feature `shell_snapshot` in config.toml.\n");
  const text = readFileSync(file, "utf8");
  assert.ok(text.startsWith('# my settings\nmodel = "gpt-5.5"\n'), text);
  assert.match(text, /^shell_snapshot = false/m);
  assert.match(text, /^memories = true$/m);
  const profile = await runCli(["features", "disable", "-p", "ci", "goals"], { cwd: ws.dir, home: ws.home });
  assert.equal(profile.code, 0, profile.stderr);
  assert.match(readFileSync(file, "utf8"), /\[profiles\.ci\.features\]\ngoals = false/);
  const listed = await runCli(["features", "list", "-p", "ci"], { cwd: ws.dir, home: ws.home });
  assert.equal(row(listed.stdout, "goals")?.[2], "false");
  assert.equal(row(listed.stdout, "memories")?.[2], "true");
});

void test("an unknown feature name is refused by enable and by --enable, with the nearest name, and config.toml is untouched", async () => {
  const ws = makeWorkspace({ config: 'model = "gpt-5.5"\n' });
  const file = join(ws.home, "config.toml");
  const r = await runCli(["features", "enable", "memoris"], { cwd: ws.dir, home: ws.home });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /unknown feature flag 'memoris' \(did you mean memories\?\)/);
  assert.equal(readFileSync(file, "utf8"), 'model = "gpt-5.5"\n');
  const list = await runCli(["features", "list", "--disable", "nope"], { cwd: ws.dir, home: ws.home });
  assert.equal(list.code, 1);
  assert.match(list.stderr, /--disable nope: unknown feature flag 'nope'/);
  writeFileSync(file, "[features]\nnope = true\n");
  const inFile = await runCli(["features", "list"], { cwd: ws.dir, home: ws.home });
  assert.equal(inFile.code, 0, "an unknown name in config.toml is a warning, so the reference's newer files still load");
  assert.match(inFile.stderr, /unknown feature 'nope'/);
});
