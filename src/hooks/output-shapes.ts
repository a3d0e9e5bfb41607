/**
 * The JSON each event's hook may print, field by field, as the reference's 0.169 output schemas
 * allow it (no other field; `null` wherever a field is optional). Codex-ts adds one field of its
 * own: PostToolUse's `hookSpecificOutput.updatedToolOutput`.
 */
import type { HookEventName } from "../protocol/hook-events.js";

type FieldKind = "boolean" | "string" | "any" | { oneOf: readonly string[] } | { constant: string } | Shape;

export interface Shape {
  fields: Record<string, FieldKind>;
  required?: readonly string[];
}

const UNIVERSAL: Record<string, FieldKind> = { continue: "boolean", stopReason: "string", suppressOutput: "boolean", systemMessage: "string" };

function specific(event: HookEventName, fields: Record<string, FieldKind>): Shape {
  return { fields: { hookEventName: { constant: event }, ...fields }, required: ["hookEventName"] };
}

const STOP: Shape = { fields: { ...UNIVERSAL, decision: { oneOf: ["block"] }, reason: "string" } };
const CONTEXT_ONLY = (event: HookEventName): Shape => ({ fields: { ...UNIVERSAL, hookSpecificOutput: specific(event, { additionalContext: "string" }) } });

export const OUTPUT_SHAPES: Record<HookEventName, Shape> = {
  PreToolUse: {
    fields: {
      ...UNIVERSAL,
      decision: { oneOf: ["approve", "block"] },
      reason: "string",
      hookSpecificOutput: specific("PreToolUse", {
        additionalContext: "string",
        permissionDecision: { oneOf: ["allow", "deny", "ask"] },
        permissionDecisionReason: "string",
        updatedInput: "any",
      }),
    },
  },
  PermissionRequest: {
    fields: {
      ...UNIVERSAL,
      hookSpecificOutput: specific("PermissionRequest", {
        decision: {
          fields: { behavior: { oneOf: ["allow", "deny"] }, interrupt: "boolean", message: "string", updatedInput: "any", updatedPermissions: "any" },
          required: ["behavior"],
        },
      }),
    },
  },
  PostToolUse: {
    fields: {
      ...UNIVERSAL,
      decision: { oneOf: ["block"] },
      reason: "string",
      hookSpecificOutput: specific("PostToolUse", { additionalContext: "string", updatedMCPToolOutput: "any", updatedToolOutput: "any" }),
    },
  },
  PreCompact: { fields: UNIVERSAL },
  PostCompact: { fields: UNIVERSAL },
  SessionStart: CONTEXT_ONLY("SessionStart"),
  SessionEnd: { fields: {} },
  UserPromptSubmit: { fields: { ...STOP.fields, hookSpecificOutput: specific("UserPromptSubmit", { additionalContext: "string" }) } },
  SubagentStart: CONTEXT_ONLY("SubagentStart"),
  SubagentStop: STOP,
  Stop: STOP,
  Interrupt: { fields: { systemMessage: "string" } },
};

/** What is wrong with `value` for `shape` (the first problem, with its path), or null. */
export function checkShape(value: Record<string, unknown>, shape: Shape, path: string): string | null {
  for (const key of Object.keys(value)) {
    if (!(key in shape.fields)) return `unknown field \`${key}\` in ${path}`;
  }
  for (const key of shape.required ?? []) {
    if (value[key] === undefined || value[key] === null) return `missing field \`${key}\` in ${path}`;
  }
  for (const [key, kind] of Object.entries(shape.fields)) {
    const field = value[key];
    if (field === undefined || field === null) continue;
    const problem = checkField(field, kind, `${path}.${key}`);
    if (problem !== null) return problem;
  }
  return null;
}

function checkField(value: unknown, kind: FieldKind, path: string): string | null {
  if (kind === "any") return null;
  if (kind === "boolean" || kind === "string") return typeof value === kind ? null : `${path} must be a ${kind}`;
  if ("oneOf" in kind) return typeof value === "string" && kind.oneOf.includes(value) ? null : `${path} must be one of ${kind.oneOf.map((v) => JSON.stringify(v)).join(", ")}`;
  if ("constant" in kind) return value === kind.constant ? null : `${path} must be ${JSON.stringify(kind.constant)}`;
  if (typeof value !== "object" || Array.isArray(value)) return `${path} must be an object`;
  return checkShape(value as Record<string, unknown>, kind, path);
}
