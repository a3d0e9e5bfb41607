/**
 * The approval × sandbox × escalation matrix of the command orchestrator, table-driven: for each
 * policy, sandbox mode, permission request, the command (known-safe, plain, or a forced removal), whether a sandboxed run looks
 * refused, whether a sandbox can be set up at all, and what already allowed the command (a rule,
 * an answer for the session), who is asked, which attempts run (sandboxed or not) and what is
 * refused. The oracle below restates docs/sandbox.md's rules; the orchestrator must agree with it
 * in every cell. "No sandbox can be set up" is real: the launcher is pointed at a mechanism that
 * does not exist and refuses, as it does on a machine without one.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EventMsg } from "../protocol/events.js";
import type { AskForApproval, ReviewDecision, SandboxMode } from "../protocol/policy.js";
import { TurnDiffTracker } from "../patch/turn-diff.js";
import { Questions } from "../approval/questions.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";
import { ApprovalStore, commandApprovalKey } from "../approval/approval-store.js";
import { LINUX_SANDBOX_ENV_VAR } from "../sandbox/launcher.js";
import { orchestrateCommand, REJECTED_BY_USER, type CommandLaunch, type SandboxPermissions } from "./command-orchestrator.js";
import type { ToolInvocation } from "./types.js";
import { testTurn } from "../../test/support/turn-context.js";

interface Cell {
  policy: AskForApproval;
  sandbox: SandboxMode;
  permissions: SandboxPermissions;
  /** `ls` is known to be safe; `touch x` is not; `rm -f x` is never run without asking where no rule speaks. */
  command: "safe" | "plain" | "forced";
  /** The sandboxed run fails the way sandbox refusals look. */
  deniedLooking: boolean;
  /** What the user answers whenever asked. */
  answer: ReviewDecision;
  /** Whether a sandbox can be set up on this machine. */
  available: boolean;
  /**
   * What allowed the command before this call: nothing, a rules `allow`, an answer "for the
   * session" to the same request, or one to running it outside the sandbox.
   */
  prior: "none" | "rule-allow" | "session" | "session-unsandboxed";
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
  // Outside the sandbox only with a yes to exactly that (for escalations, the same request).
  let unsandboxedOk = c.prior === "session-unsandboxed" || (escalated && c.prior === "session");
  if (escalated) {
    if (!unsandboxedOk) {
      asked++;
      if (!approves) return { asked, runs: [], refused: true };
    }
    return { asked, runs: ["unsandboxed"], refused: false };
  }
  // A forced removal no rule speaks about: refused where nobody can be asked, else asked.
  const forced = c.command === "forced" && c.prior !== "rule-allow";
  if (forced && c.policy === "never") return { asked: 0, runs: [], refused: true };
  const allowed = c.prior === "rule-allow" || c.prior === "session";
  if (((c.policy === "untrusted" && c.command !== "safe") || forced) && !allowed) {
    asked++;
    if (!approves) return { asked, runs: [], refused: true };
  }
  if (c.sandbox === "danger-full-access") return { asked, runs: ["unsandboxed"], refused: false };
  const mayLeave = (): boolean => {
    if (unsandboxedOk) return true;
    asked++;
    return (unsandboxedOk = approves);
  };
  if (!c.available) {
    // Nobody can be asked under `never`: nothing runs. Otherwise always asked, whatever allowed the command.
    if (c.policy === "never" || !mayLeave()) return { asked, runs: [], refused: true };
    return { asked, runs: ["unsandboxed"], refused: false };
  }
  const runs = ["sandboxed"];
  if (c.policy === "never" || !c.deniedLooking) return { asked, runs, refused: false };
  // A refusal-looking failure: asked before a rerun outside, unless that was said yes to already.
  if (!mayLeave()) return { asked, runs, refused: true };
  return { asked, runs: [...runs, "unsandboxed"], refused: false };
}

const cwd = mkdtempSync(join(tmpdir(), "codex-ts-matrix-"));
const rulesFile = join(cwd, "allow.rules");
writeFileSync(rulesFile, 'prefix_rule(pattern = ["ls"], decision = "allow")\nprefix_rule(pattern = ["touch"], decision = "allow")\nprefix_rule(pattern = ["rm"], decision = "allow")\n');
const allowRules = ExecPolicy.loadFiles([rulesFile]);

async function run(c: Cell): Promise<Outcome> {
  const argv = { safe: ["ls"], plain: ["touch", "x"], forced: ["rm", "-f", "x"] }[c.command];
  const store = new ApprovalStore();
  if (c.prior === "session") store.remember("exec", [commandApprovalKey(argv, cwd, c.permissions)]);
  if (c.prior === "session-unsandboxed") store.remember("exec", [commandApprovalKey(argv, cwd, "require_escalated")]);
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
    turn: testTurn(cwd, {
      subId: "0",
      approvalPolicy: c.policy,
      sandbox: c.sandbox,
      services: { questions, execPolicy: c.prior === "rule-allow" ? allowRules : ExecPolicy.empty(), approvalStore: store },
    }),
  };
  const runs: string[] = [];
  const forced = process.env[LINUX_SANDBOX_ENV_VAR];
  if (c.available) delete process.env[LINUX_SANDBOX_ENV_VAR];
  else process.env[LINUX_SANDBOX_ENV_VAR] = "a-mechanism-this-machine-lacks";
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
  ).finally(() => {
    if (forced === undefined) delete process.env[LINUX_SANDBOX_ENV_VAR];
    else process.env[LINUX_SANDBOX_ENV_VAR] = forced;
  });
  if (outcome.kind === "refused" && asked > 0) assert.equal(outcome.message, REJECTED_BY_USER);
  // Under `never` the model is told why nothing ran.
  if (outcome.kind === "refused" && asked === 0 && c.permissions === "use_default") {
    if (c.command === "forced" && c.prior !== "rule-allow") assert.match(outcome.message, /^rm -f x: rm with a force option/);
    else if (!c.available) assert.match(outcome.message, /a-mechanism-this-machine-lacks/);
  }
  return { asked, runs, refused: outcome.kind === "refused" };
}

void test("every cell of the approval × sandbox × escalation matrix follows the rules", { skip: process.platform !== "linux" ? "the unavailable rows force a Linux mechanism" : false }, async () => {
  const cells: Cell[] = [];
  for (const policy of ["untrusted", "on-failure", "on-request", "never"] as const)
    for (const sandbox of ["read-only", "workspace-write", "danger-full-access"] as const)
      for (const permissions of ["use_default", "require_escalated"] as const)
        for (const command of ["safe", "plain", "forced"] as const)
          for (const deniedLooking of [true, false])
            for (const answer of ["approved", "approved_for_session", "denied"] as const)
              for (const available of [true, false])
                for (const prior of ["none", "rule-allow", "session", "session-unsandboxed"] as const)
                  cells.push({ policy, sandbox, permissions, command, deniedLooking, answer, available, prior });
  let checked = 0;
  for (const cell of cells) {
    assert.deepEqual(await run(cell), oracle(cell), JSON.stringify(cell));
    checked++;
  }
  assert.equal(checked, 4 * 3 * 2 * 3 * 2 * 3 * 2 * 4);
});

void test("the rows that ran outside the sandbox without asking before: an allowed command with no sandbox to run in", async () => {
  // A rules allow, an answer for the session, or a yes under `untrusted`: none of them is a yes
  // to running unconfined, so the user is asked, and refusing leaves nothing run.
  for (const prior of ["rule-allow", "session"] as const) {
    const cell: Cell = { policy: "on-request", sandbox: "workspace-write", permissions: "use_default", command: "plain", deniedLooking: false, answer: "denied", available: false, prior };
    assert.deepEqual(await run(cell), { asked: 1, runs: [], refused: true }, prior);
  }
  const untrusted: Cell = { policy: "untrusted", sandbox: "workspace-write", permissions: "use_default", command: "plain", deniedLooking: false, answer: "approved", available: false, prior: "none" };
  assert.deepEqual(await run(untrusted), { asked: 2, runs: ["unsandboxed"], refused: false });
});
