import { test } from "node:test";
import assert from "node:assert/strict";
import { modelInfoFor } from "../model/catalog.js";
import { sandboxPolicyFor } from "../protocol/policy.js";
import { agentsMdMessage, baseInstructions, environmentContext, permissionsInstructions } from "./prompts.js";

void test("environment context has the reference's exact layout", () => {
  assert.equal(
    environmentContext({
      cwd: "/home/user/work",
      approvalPolicy: "never",
      sandboxMode: "workspace-write",
      networkAccess: "restricted",
      shell: "bash",
    }),
    "<environment_context>\n  <cwd>/home/user/work</cwd>\n  <approval_policy>never</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>",
  );
});

void test("environment context lists writable roots before the shell", () => {
  assert.equal(
    environmentContext({
      cwd: "/w",
      approvalPolicy: "on-request",
      sandboxMode: "workspace-write",
      networkAccess: "enabled",
      shell: "zsh",
      writableRoots: ["/w", "/tmp/x"],
    }),
    [
      "<environment_context>",
      "  <cwd>/w</cwd>",
      "  <approval_policy>on-request</approval_policy>",
      "  <sandbox_mode>workspace-write</sandbox_mode>",
      "  <network_access>enabled</network_access>",
      "  <writable_roots>",
      "    <root>/w</root>",
      "    <root>/tmp/x</root>",
      "  </writable_roots>",
      "  <shell>zsh</shell>",
      "</environment_context>",
    ].join("\n"),
  );
});

void test("AGENTS.md wrapper", () => {
  assert.equal(
    agentsMdMessage("/repo", "Run npm test."),
    "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nRun npm test.\n</INSTRUCTIONS>",
  );
});

void test("permissions mention the mode, roots, network and approval policy", () => {
  const text = permissionsInstructions(sandboxPolicyFor("workspace-write", ["/extra"]), "on-request", "/repo");
  assert.match(text, /workspace-write/);
  assert.match(text, /`\/repo`/);
  assert.match(text, /`\/extra`/);
  assert.match(text, /Network access is restricted/);
  assert.match(text, /on-request/);
  assert.match(text, /require_escalated/);

  const ro = permissionsInstructions(sandboxPolicyFor("read-only"), "never", "/repo");
  assert.match(ro, /read-only/);
  assert.match(ro, /`never`/);
  assert.doesNotMatch(ro, /Writable roots/);

  const full = permissionsInstructions(sandboxPolicyFor("danger-full-access"), "untrusted", "/repo");
  assert.match(full, /danger-full-access/);
  assert.match(full, /untrusted/);
});

void test("permissions list what the profile puts off limits and keeps read-only, and say approval does not lift it", () => {
  const rules = {
    paths: [
      { path: "/repo/secrets", access: "none" as const },
      { path: "/repo/docs", access: "read" as const },
    ],
    denyGlobs: [{ base: "/repo", pattern: "**/.env" }],
    globScanMaxDepth: null,
    searchRoots: ["/repo"],
  };
  const text = permissionsInstructions(sandboxPolicyFor("workspace-write"), "on-request", "/repo", rules);
  const section = text.slice(text.indexOf("## Paths off limits"));
  assert.match(section, /^## Paths off limits\n.*neither read nor written.*approval or escalation does not lift it.*\n- path `\/repo\/secrets`\n- glob `\/repo\/\*\*\/\.env`\n## Read-only inside the writable roots\n- `\/repo\/docs`\n/);
  // Before the approval policy, inside the section.
  assert.ok(text.indexOf("## Paths off limits") < text.indexOf("Approval policy is"));
  assert.ok(text.endsWith("</permissions instructions>"));
  const none = permissionsInstructions(sandboxPolicyFor("read-only"), "never", "/repo", { ...rules, paths: [], denyGlobs: [] });
  assert.doesNotMatch(none, /off limits|Read-only inside/);
});

void test("base instructions name the tools each family gets", () => {
  const current = baseInstructions(modelInfoFor("gpt-5.5"));
  assert.ok(current.length > 2000 && current.length < 6000, `length ${current.length}`);
  assert.match(current, /`exec_command`/);
  assert.match(current, /`write_stdin`/);
  assert.match(current, /\*\*\* Begin Patch/);
  assert.doesNotMatch(current, /update_plan/);

  const codex = baseInstructions(modelInfoFor("gpt-5-codex"));
  assert.match(codex, /`shell_command`/);
  assert.match(codex, /`update_plan`/);
  assert.doesNotMatch(codex, /exec_command/);

  const fallback = baseInstructions(modelInfoFor("something-else"));
  assert.match(fallback, /`shell`/);
  assert.match(fallback, /`input` argument/);
});
