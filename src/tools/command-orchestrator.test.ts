/**
 * The approval × sandbox × escalation matrix of the command orchestrator, table-driven: for each
 * policy, sandbox mode, permission request, known-safe or not, and whether a sandboxed run looks
 * refused, who is asked, which attempts run (sandboxed or not) and what is refused. The oracle
 * below restates docs/sandbox.md's rules; the orchestrator must agree with it in every cell.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import { sandboxPolicyFor, type AskForApproval, type ReviewDecision, type SandboxMode } from "../protocol/policy.js";
import { modelInfoFor } from "../model/catalog.js";
import { TurnDiffTracker } from "../patch/turn-diff.js";
import { UnifiedExecManager } from "../exec/unified-exec.js";
import { Questions } from "../approval/questions.js";
import { ApprovalStore } from "../approval/approval-store.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";
import { noTelemetry } from "../telemetry/recorder.js";
import { orchestrateCommand, REJECTED_BY_USER, type CommandLaunch, type SandboxPermissions } from "./command-orchestrator.js";
import type { ToolInvocation } from "./types.js";

interface Cell {
  policy: AskForApproval;
  sandbox: SandboxMode;
  permissions: SandboxPermissions;
  /** `ls` is known to be safe; `touch x` is not. */
  safe: boolean;
  /** The sandboxed run fails the way sandbox refusals look. */
  deniedLooking: boolean;
  /** What the user answers whenever asked. */
  answer: ReviewDecision;
}

interface Outcome {
  asked: number;
  /** The attempts, in order: "sandboxed" or "unsandboxed". */
  runs: string[];
  refused: boolean;
}

/** The rules, restated. */
function oracle(c: Cell): Outcome {
  const escalated = c.permissions === "require_escalated";
  if (escalated && c.policy !== "on-request") return { asked: 0, runs: [], refused: true };
  const approves = c.answer === "approved" || c.answer === "approved_for_session";
  let asked = 0;
  const needsAsk = c.policy === "untrusted" ? !c.safe : c.policy === "on-request" && escalated;
  if (needsAsk) {
    asked++;
    if (!approves) return { asked, runs: [], refused: true };
  }
  if (c.sandbox === "danger-full-access" || (escalated && approves)) return { asked, runs: ["unsandboxed"], refused: false };
  const runs = ["sandboxed"];
  if (c.policy === "never" || !c.deniedLooking) return { asked, runs, refused: false };
  // A refusal-looking failure: asked again unless already approved above.
  if (!needsAsk) {
    asked++;
    if (!approves) return { asked, runs, refused: true };
  }
  return { asked, runs: [...runs, "unsandboxed"], refused: false };
}

async function run(c: Cell): Promise<Outcome> {
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-matrix-"));
  const questions = new Questions();
  let asked = 0;
  const emit = (msg: EventMsg): void => {
    if (msg.type !== "question_asked" || msg.request.type !== "exec_approval_request") return;
    asked++;
    queueMicrotask(() => questions.answer(msg.key, { type: "decision", decision: c.answer }));
  };
  const invocation: ToolInvocation = {
    callId: "c1",
    name: "shell",
    payload: { kind: "function", arguments: "{}" },
    signal: new AbortController().signal,
    emit,
    turnDiff: new TurnDiffTracker(cwd),
    turn: {
      subId: "0",
      turnId: "turn-0",
      cwd,
      model: modelInfoFor("gpt-5.5"),
      approvalPolicy: c.policy,
      sandboxPolicy: sandboxPolicyFor(c.sandbox),
      reasoningEffort: null,
      reasoningSummary: null,
      verbosity: null,
      outputSchema: null,
      shellEnvironmentPolicy: {},
      services: {
        unifiedExec: new UnifiedExecManager(),
        userShell: "/bin/bash",
        questions,
        telemetry: noTelemetry(),
        execPolicy: ExecPolicy.empty(),
        approvalStore: new ApprovalStore(),
      },
    },
  };
  const runs: string[] = [];
  const argv = c.safe ? ["ls"] : ["touch", "x"];
  const outcome = await orchestrateCommand(
    invocation,
    { argv, cwd, env: {}, permissions: c.permissions, ...(c.permissions === "require_escalated" ? { justification: "needs it" } : {}) },
    "should not",
    async (launch: CommandLaunch) => {
      const sandboxed = launch.sandbox !== "none";
      runs.push(sandboxed ? "sandboxed" : "unsandboxed");
      return sandboxed && c.deniedLooking ? { exitCode: 1, output: "touch: x: Read-only file system" } : { exitCode: 0, output: "" };
    },
    (r) => ({ exitCode: r.exitCode, timedOut: false, output: r.output }),
  );
  if (outcome.kind === "refused" && asked > 0) assert.equal(outcome.message, REJECTED_BY_USER);
  return { asked, runs, refused: outcome.kind === "refused" };
}

void test("every cell of the approval × sandbox × escalation matrix follows the rules", async () => {
  const cells: Cell[] = [];
  for (const policy of ["untrusted", "on-failure", "on-request", "never"] as const)
    for (const sandbox of ["read-only", "workspace-write", "danger-full-access"] as const)
      for (const permissions of ["use_default", "require_escalated"] as const)
        for (const safe of [true, false])
          for (const deniedLooking of [true, false])
            for (const answer of ["approved", "approved_for_session", "denied"] as const) cells.push({ policy, sandbox, permissions, safe, deniedLooking, answer });
  let checked = 0;
  for (const cell of cells) {
    assert.deepEqual(await run(cell), oracle(cell), JSON.stringify(cell));
    checked++;
  }
  assert.equal(checked, 4 * 3 * 2 * 2 * 2 * 3);
});
