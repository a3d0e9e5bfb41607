/**
 * Reading what one hook run said. Exit 0: stdout is empty, plain text (context for the events
 * that take it), or a JSON object in the event's output shape (unknown fields refused, as the
 * reference refuses them). Exit 2: a block, its reason on stderr, for the events that can block.
 * Anything else (another exit code, a timeout, a crash) is a failure that blocks nothing.
 */
import type { HookEventName, HookOutputEntry, HookRunStatus } from "../protocol/hook-events.js";
import type { HookProcessResult } from "./runner.js";
import { checkShape, OUTPUT_SHAPES } from "./output-shapes.js";

export interface ParsedRun {
  status: HookRunStatus;
  entries: HookOutputEntry[];
  /** A block or a denial, with its reason. */
  block: string | null;
  /** `continue: false`, with its `stopReason`. */
  stop: { reason: string | null } | null;
  /** Text for the model (`additionalContext`, or a context event's plain stdout). */
  contexts: string[];
  /** PreToolUse: `permissionDecision: "allow"` with `updatedInput`. */
  updatedInput?: unknown;
  /** PermissionRequest: `decision.behavior: "allow"`. */
  allow?: boolean;
  /** PostToolUse: what the model should read instead of the tool's output. */
  replacement?: unknown;
}

/** What the parser needs to know about the call (PostToolUse's MCP-only field). */
export interface ParseOptions {
  mcpTool?: boolean;
}

/** Events whose exit code 2 blocks (with the reason on stderr). */
const BLOCKING: ReadonlySet<HookEventName> = new Set(["PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop"]);
/** Events whose plain-text stdout is context for the model. */
const CONTEXT_TEXT: ReadonlySet<HookEventName> = new Set(["SessionStart", "UserPromptSubmit", "SubagentStart"]);
/** Events whose stdout must be JSON when it is not empty. */
const JSON_ONLY: ReadonlySet<HookEventName> = new Set(["Stop", "SubagentStop"]);

type Json = Record<string, unknown>;

class Run implements ParsedRun {
  status: HookRunStatus = "completed";
  entries: HookOutputEntry[] = [];
  block: string | null = null;
  stop: { reason: string | null } | null = null;
  contexts: string[] = [];
  updatedInput?: unknown;
  allow?: boolean;
  replacement?: unknown;

  fail(text: string): this {
    this.status = "failed";
    this.entries.push({ kind: "error", text });
    this.block = null;
    this.stop = null;
    delete this.updatedInput;
    delete this.allow;
    delete this.replacement;
    return this;
  }

  blocked(reason: string): this {
    this.status = "blocked";
    this.block = reason;
    this.entries.push({ kind: "feedback", text: reason });
    return this;
  }

  stopped(reason: string | null): this {
    this.status = "stopped";
    this.stop = { reason };
    if (reason !== null) this.entries.push({ kind: "stop", text: reason });
    return this;
  }

  context(text: string): void {
    this.contexts.push(text);
    this.entries.push({ kind: "context", text });
  }
}

export function parseRun(event: HookEventName, result: HookProcessResult, options: ParseOptions = {}): ParsedRun {
  const run = new Run();
  if (result.error !== null) return run.fail(result.error);
  if (result.exitCode === 2 && BLOCKING.has(event)) {
    const reason = result.stderr.trim();
    return reason !== "" ? run.blocked(reason) : run.fail(`${event} hook exited with code 2 but did not write a reason to stderr`);
  }
  if (result.exitCode !== 0) return run.fail(`hook exited with code ${result.exitCode}`);
  const stdout = result.stdout.trim();
  if (stdout === "" || event === "SessionEnd") return run;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    if (CONTEXT_TEXT.has(event)) {
      run.context(stdout);
      return run;
    }
    if (JSON_ONLY.has(event) || /^[[{]/.test(stdout)) return run.fail(`hook returned invalid ${event} JSON output: not JSON`);
    return run;
  }
  const problem = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? checkShape(parsed as Json, OUTPUT_SHAPES[event], event) : "expected a JSON object";
  if (problem !== null) return run.fail(`hook returned invalid ${event} JSON output: ${problem}`);
  readOutput(event, parsed as Json, run, options);
  return run;
}

function readOutput(event: HookEventName, out: Json, run: Run, options: ParseOptions): void {
  if (typeof out.systemMessage === "string") run.entries.push({ kind: "warning", text: out.systemMessage });
  const specific = (out.hookSpecificOutput ?? null) as Json | null;
  const context = specific && typeof specific.additionalContext === "string" ? specific.additionalContext : null;
  switch (event) {
    case "PreToolUse":
      return preToolUse(out, specific, context, run);
    case "PermissionRequest":
      return permissionRequest(out, specific, run);
    case "PostToolUse":
      return postToolUse(out, specific, context, run, options);
    case "UserPromptSubmit":
    case "Stop":
    case "SubagentStop":
      return blockable(event, out, context, run);
    case "SessionStart":
    case "SubagentStart":
    case "PreCompact":
    case "PostCompact":
      if (out.continue === false) run.stopped(str(out.stopReason));
      if (context !== null) run.context(context);
      return;
    case "SessionEnd":
    case "Interrupt":
      return;
  }
}

/** Fields the PreToolUse and PermissionRequest events cannot honour. */
function unsupportedUniversal(event: HookEventName, out: Json): string | null {
  if (out.continue === false) return `${event} hook returned unsupported continue:false`;
  if (typeof out.stopReason === "string") return `${event} hook returned unsupported stopReason`;
  if (out.suppressOutput === true) return `${event} hook returned unsupported suppressOutput`;
  return null;
}

function preToolUse(out: Json, specific: Json | null, context: string | null, run: Run): void {
  const invalid = unsupportedUniversal("PreToolUse", out);
  if (invalid !== null) return void run.fail(invalid);
  if (context !== null) run.context(context);
  const decision = specific?.permissionDecision ?? null;
  const reason = str(specific?.permissionDecisionReason);
  const updated = specific?.updatedInput ?? null;
  if (decision !== null || reason !== null || updated !== null) {
    if (updated !== null && decision !== "allow") return void run.fail("PreToolUse hook returned updatedInput without permissionDecision:allow");
    if (decision === "allow") return updated === null ? void run.fail("PreToolUse hook returned unsupported permissionDecision:allow") : void (run.updatedInput = updated);
    if (decision === "ask") return void run.fail("PreToolUse hook returned unsupported permissionDecision:ask");
    if (decision === "deny") {
      return reason?.trim() ? void run.blocked(reason.trim()) : void run.fail("PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason");
    }
    return void run.fail("PreToolUse hook returned permissionDecisionReason without permissionDecision");
  }
  const legacy = out.decision ?? null;
  const legacyReason = str(out.reason);
  if (legacy === "approve") return void run.fail("PreToolUse hook returned unsupported decision:approve");
  if (legacy === "block") {
    return legacyReason?.trim() ? void run.blocked(legacyReason.trim()) : void run.fail("PreToolUse hook returned decision:block without a non-empty reason");
  }
  if (legacyReason !== null) run.fail("PreToolUse hook returned reason without decision");
}

function permissionRequest(out: Json, specific: Json | null, run: Run): void {
  const invalid = unsupportedUniversal("PermissionRequest", out);
  if (invalid !== null) return void run.fail(invalid);
  const decision = (specific?.decision ?? null) as Json | null;
  if (decision === null) return;
  if (decision.updatedInput !== undefined && decision.updatedInput !== null) return void run.fail("PermissionRequest hook returned unsupported updatedInput");
  if (decision.updatedPermissions !== undefined && decision.updatedPermissions !== null) return void run.fail("PermissionRequest hook returned unsupported updatedPermissions");
  if (decision.interrupt === true) return void run.fail("PermissionRequest hook returned unsupported interrupt:true");
  if (decision.behavior === "allow") run.allow = true;
  else run.blocked(str(decision.message)?.trim() || "PermissionRequest hook denied approval");
}

function postToolUse(out: Json, specific: Json | null, context: string | null, run: Run, options: ParseOptions): void {
  if (out.suppressOutput === true) return void run.fail("PostToolUse hook returned unsupported suppressOutput");
  const reason = str(out.reason);
  if (out.decision === "block" && !reason?.trim()) return void run.fail("PostToolUse hook returned decision:block without a non-empty reason");
  if (out.decision !== "block" && out.continue !== false && reason !== null) return void run.fail("PostToolUse hook returned reason without decision");
  const mcpOutput = specific?.updatedMCPToolOutput ?? null;
  if (mcpOutput !== null && !options.mcpTool) return void run.fail("PostToolUse hook returned updatedMCPToolOutput for a tool that is not an MCP tool (updatedToolOutput replaces any tool's output)");
  if (context !== null) run.context(context);
  if (out.continue === false) return void run.stopped(str(out.stopReason));
  if (out.decision === "block" && reason) return void run.blocked(reason.trim());
  const replacement = specific?.updatedToolOutput ?? mcpOutput;
  if (replacement !== null && replacement !== undefined) run.replacement = replacement;
}

function blockable(event: HookEventName, out: Json, context: string | null, run: Run): void {
  if (out.continue === false) {
    run.stopped(str(out.stopReason));
    return;
  }
  const reason = str(out.reason);
  if (out.decision === "block") {
    if (!reason?.trim()) return void run.fail(`${event} hook returned decision:block without a non-empty reason`);
    run.blocked(reason.trim());
  }
  if (context !== null) run.context(context);
}

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}
