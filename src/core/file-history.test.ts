import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AskForApproval, SandboxPolicy } from "../protocol/policy.js";
import type { CollaborationMode } from "../protocol/ops.js";
import { FileSystemGuard } from "../sandbox/fs-guard.js";
import { NO_FILESYSTEM_RULES } from "../sandbox/fs-rules.js";
import { DEFAULT_LIMITS } from "../undo/exclusions.js";
import { FileHistory } from "./file-history.js";
import { makeGitShim, withPathOf } from "../../test/support/git-shim.js";

void test("the repository is looked for before the first turn only when turns under the session's settings take snapshots", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-file-history-"));
  execFileSync("git", ["init", "-q"], { cwd: dir });
  // A git that notes each call: the look-up is a `git rev-parse`.
  const shim = makeGitShim(`echo "$*" >> "$SHIM_DIR/log"\nexec "$REAL_GIT" "$@"`);
  const log = join(shim.dir, "log");
  const cases: Array<[string, { sandboxPolicy: SandboxPolicy; approvalPolicy: AskForApproval; collaborationMode?: CollaborationMode }, boolean]> = [
    ["read-only, never asking", { sandboxPolicy: { type: "read-only" }, approvalPolicy: "never" }, false],
    ["plan mode", { sandboxPolicy: { type: "danger-full-access" }, approvalPolicy: "never", collaborationMode: "plan" }, false],
    ["read-only, asking on request", { sandboxPolicy: { type: "read-only" }, approvalPolicy: "on-request" }, true],
    ["full access", { sandboxPolicy: { type: "danger-full-access" }, approvalPolicy: "never" }, true],
  ];
  await withPathOf(shim, async () => {
    for (const [label, settings, looks] of cases) {
      const calls = existsSync(log) ? readFileSync(log, "utf8").split("\n").length : 0;
      const history = new FileHistory(
        {
          threadId: "00000000-0000-7000-8000-000000000000",
          codexHome: undefined,
          recorder: null,
          guard: new FileSystemGuard(NO_FILESYSTEM_RULES, { warn: () => {} }),
          settings: () => ({ cwd: dir, ...settings }),
          grantedRoots: () => [],
          send: () => {},
          warn: () => {},
        },
        { limits: DEFAULT_LIMITS, quiet: true },
      );
      await history.prewarm();
      const after = existsSync(log) ? readFileSync(log, "utf8").split("\n").length : 0;
      assert.equal(after > calls, looks, label);
      await history.close();
    }
  });
  assert.match(readFileSync(log, "utf8"), /^rev-parse /m);
});
