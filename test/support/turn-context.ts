/**
 * A turn as tool unit tests dispatch calls in: gpt-5.5, a read-only sandbox unless given,
 * approvals never asked unless given, fresh services (no command rules, nothing approved yet).
 * The caller supplies what its test is about (the policy, the questions, the services it fakes).
 */
import { ApprovalStore } from "../../src/approval/approval-store.js";
import { ExecPolicy } from "../../src/approval/exec-policy/policy.js";
import { Questions } from "../../src/approval/questions.js";
import { UnifiedExecManager } from "../../src/exec/unified-exec.js";
import { modelInfoFor } from "../../src/model/catalog.js";
import { sandboxPolicyFor, type AskForApproval, type SandboxPolicy } from "../../src/protocol/policy.js";
import { noTelemetry } from "../../src/telemetry/recorder.js";
import type { TurnContext, TurnServices } from "../../src/tools/turn-context.js";

export interface TestTurnOptions {
  subId?: string;
  approvalPolicy?: AskForApproval;
  sandbox?: SandboxPolicy["type"];
  services?: Partial<TurnServices>;
}

export function testTurn(cwd: string, options: TestTurnOptions = {}): TurnContext {
  const subId = options.subId ?? "1";
  return {
    subId,
    turnId: `turn-${subId}`,
    cwd,
    model: modelInfoFor("gpt-5.5"),
    approvalPolicy: options.approvalPolicy ?? "never",
    sandboxPolicy: sandboxPolicyFor(options.sandbox ?? "read-only"),
    reasoningEffort: null,
    reasoningSummary: null,
    verbosity: null,
    outputSchema: null,
    shellEnvironmentPolicy: {},
    services: {
      unifiedExec: new UnifiedExecManager(),
      userShell: "/bin/bash",
      questions: new Questions(),
      telemetry: noTelemetry(),
      execPolicy: ExecPolicy.empty(),
      approvalStore: new ApprovalStore(),
      ...options.services,
    },
  };
}
