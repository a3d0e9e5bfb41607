import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverHooks } from "./discovery.js";
import { HookRegistry } from "./registry.js";
import { hookHash } from "./trust.js";
import type { HookSettings } from "../config/hook-sources.js";

function settings(home: string, extra: Partial<HookSettings> = {}): HookSettings {
  return {
    enabled: true,
    sources: [{ kind: "user", folder: home, configFile: join(home, "config.toml"), table: undefined }],
    userConfigFile: join(home, "config.toml"),
    stateOverrides: [],
    bypassTrust: false,
    ...extra,
  };
}

const cmd = (command: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ type: "command", command, ...extra });

void test("hooks from hooks.json then [hooks], user then project, in the reference's event order, keyed and numbered", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-discovery-"));
  const project = join(home, "project", ".codex");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, "hooks.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd("a")] }], PreToolUse: [{ matcher: "Bash", hooks: [cmd("b"), cmd("c", { timeout: 5 })] }] } }));
  writeFileSync(join(project, "hooks.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ matcher: "ignored", hooks: [cmd("d")] }] } }));
  const found = discoverHooks(
    settings(home, {
      sources: [
        { kind: "user", folder: home, configFile: join(home, "config.toml"), table: { SessionEnd: [{ hooks: [cmd("e", { timeout: 30 })] }], state: {} } },
        { kind: "project", folder: project, configFile: join(project, "config.toml"), table: undefined },
      ],
    }),
  );
  const summary = found.hooks.map((h) => [h.key.slice(home.length), h.event, h.matcher, h.handler.command, h.timeoutSec, h.displayOrder, h.source, h.trust]);
  assert.deepEqual(summary, [
    ["/hooks.json:pre_tool_use:0:0", "PreToolUse", "Bash", "b", 600, 0, "user", "untrusted"],
    ["/hooks.json:pre_tool_use:0:1", "PreToolUse", "Bash", "c", 5, 1, "user", "untrusted"],
    ["/hooks.json:stop:0:0", "Stop", null, "a", 600, 2, "user", "untrusted"],
    ["/config.toml:session_end:0:0", "SessionEnd", null, "e", 3, 3, "user", "untrusted"],
    // UserPromptSubmit has no matcher: it is dropped, from the hash too.
    ["/project/.codex/hooks.json:user_prompt_submit:0:0", "UserPromptSubmit", null, "d", 600, 4, "project", "untrusted"],
  ]);
  assert.deepEqual(found.warnings, [
    `loading hooks from both ${join(home, "hooks.json")} and ${join(home, "config.toml")}; prefer a single representation for this layer`,
    `clamping SessionEnd hook timeout to 3s in ${join(home, "config.toml")}`,
  ]);
});

void test("trust: the saved hash must be the current one; enabled = false keeps a hook from running; bypass runs the rest", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-discovery-"));
  writeFileSync(join(home, "hooks.json"), JSON.stringify({ hooks: { Stop: [{ hooks: [cmd("one"), cmd("two"), cmd("three"), cmd("four")] }] } }));
  const key = (i: number): string => JSON.stringify(`${join(home, "hooks.json")}:stop:0:${i}`);
  const hash = (command: string): string => hookHash("Stop", null, { command, timeoutSec: null, async: false, statusMessage: null, extra: {} });
  writeFileSync(
    join(home, "config.toml"),
    [
      `[hooks.state.${key(0)}]`,
      `trusted_hash = "${hash("one")}"`,
      `[hooks.state.${key(1)}]`,
      `trusted_hash = "${hash("an earlier version")}"`,
      `[hooks.state.${key(2)}]`,
      `trusted_hash = "${hash("three")}"`,
      "enabled = false",
      "",
    ].join("\n"),
  );
  const registry = new HookRegistry(settings(home));
  assert.deepEqual(registry.list().hooks.map((h) => [h.command, h.trust_status, h.enabled]), [
    ["one", "trusted", true],
    ["two", "modified", true],
    ["three", "trusted", false],
    ["four", "untrusted", true],
  ]);
  assert.deepEqual(registry.runnable("Stop").map((h) => h.handler.command), ["one"]);
  assert.match(registry.startupWarnings().join("\n"), /2 hooks are new or changed and will not run until trusted/);
  const bypassed = new HookRegistry(settings(home, { bypassTrust: true }));
  assert.deepEqual(bypassed.runnable("Stop").map((h) => h.handler.command), ["one", "two", "four"]);
  assert.equal(new HookRegistry(settings(home, { enabled: false })).list().hooks.length, 0);
});

void test("a file that does not fit is reported part by part; positions (and so keys) are kept", () => {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-discovery-"));
  writeFileSync(
    join(home, "hooks.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "agent" }, cmd(""), cmd("ok", { timeout: "10" }), cmd("kept")] }, { matcher: "[", hooks: [cmd("x")] }] } }),
  );
  const found = discoverHooks(settings(home));
  assert.deepEqual(found.hooks.map((h) => h.key.slice(home.length)), ["/hooks.json:pre_tool_use:0:3"]);
  assert.equal(found.warnings.length, 4);
  assert.match(found.warnings[0] ?? "", /skipping agent hook .*hooks\.PreToolUse\[0\]\.hooks\[0\]: agent hooks are not supported yet/);
  assert.match(found.warnings[1] ?? "", /skipping empty hook command/);
  assert.match(found.warnings[2] ?? "", /`timeout` must be a whole number of seconds, found "10"/);
  assert.match(found.warnings[3] ?? "", /invalid matcher "\["/);
  writeFileSync(join(home, "hooks.json"), JSON.stringify({ hook: {} }));
  assert.match(discoverHooks(settings(home)).warnings[0] ?? "", /unknown field `hook`, expected `hooks` or `description`/);
  writeFileSync(join(home, "hooks.json"), "{");
  assert.match(discoverHooks(settings(home)).warnings[0] ?? "", /failed to parse hooks config/);
});
