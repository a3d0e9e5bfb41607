import { test } from "node:test";
import assert from "node:assert/strict";
import { configInputFromFlags } from "./session-flags.js";

const base = { config: ["model=\"x\""], addDir: ["/extra"] };

void test("plain flags pass through to the config input", () => {
  const input = configInputFromFlags("/w", { ...base, sandbox: "read-only", askForApproval: "untrusted", profile: "p", search: true });
  assert.deepEqual(
    { cwd: input.cwd, overrides: input.overrides, sandboxMode: input.sandboxMode, approvalPolicy: input.approvalPolicy, addDirs: input.addDirs, profile: input.profile, search: input.search },
    { cwd: "/w", overrides: ["model=\"x\""], sandboxMode: "read-only", approvalPolicy: "untrusted", addDirs: ["/extra"], profile: "p", search: true },
  );
});

void test("--full-auto means workspace-write with on-request approvals; the bypass flag wins over both", () => {
  const auto = configInputFromFlags("/w", { ...base, fullAuto: true, sandbox: "read-only", askForApproval: "untrusted" });
  assert.equal(auto.sandboxMode, "workspace-write");
  assert.equal(auto.approvalPolicy, "on-request");
  const bypass = configInputFromFlags("/w", { ...base, fullAuto: true, dangerouslyBypassApprovalsAndSandbox: true });
  assert.equal(bypass.sandboxMode, "danger-full-access");
  assert.equal(bypass.approvalPolicy, "never");
});
