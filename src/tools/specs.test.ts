import { test } from "node:test";
import assert from "node:assert/strict";
import { toolName } from "../protocol/tool-spec.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { modelInfoFor, type ModelInfo } from "../model/catalog.js";
import type { WebSearchSettings } from "../protocol/web-search.js";
import { buildToolSpecs } from "./specs.js";
import { APPLY_PATCH_LARK_GRAMMAR, type ToolSpec } from "../protocol/tool-spec.js";
import { toChatTools } from "../model/chat-tools.js";

/** The reference's tool list for gpt-5.5, descriptions removed (test/fixtures/reference/README.md). */
const REFERENCE = fileURLToPath(new URL("../../../test/fixtures/reference/codex-0.169-tools.json", import.meta.url));

/** Drops `description` keys of schemas (and tools) while keeping properties that happen to be named "description". */
function stripDescriptions(value: unknown, inPropertiesMap = false): unknown {
  if (Array.isArray(value)) return value.map((v) => stripDescriptions(v));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === "description" && !inPropertiesMap) continue;
      out[key] = stripDescriptions(child, key === "properties" && !inPropertiesMap);
    }
    return out;
  }
  return value;
}

function names(specs: ToolSpec[]): string[] {
  return specs.map((s) => ("name" in s ? s.name : s.type));
}

void test("gpt-5.5 tools equal the reference's, descriptions aside", () => {
  // All ten: the goal tools and tool_search included.
  const reference = JSON.parse(readFileSync(REFERENCE, "utf8")) as Array<{ type: string; name?: string }>;
  // The captured run used the default mode, cached.
  const ours = buildToolSpecs(withSearch("gpt-5.5", { mode: "cached" }));
  assert.deepEqual(names(ours), reference.map((tool) => tool.name ?? tool.type));
  assert.deepEqual(stripDescriptions(ours), stripDescriptions(reference));
  // Key order is part of the byte-level request body (and so of prompt caching): compare text too.
  assert.equal(JSON.stringify(stripDescriptions(ours)), JSON.stringify(stripDescriptions(reference)));
});

void test("freeform apply_patch grammar is byte-identical to the reference", () => {
  const reference = JSON.parse(readFileSync(REFERENCE, "utf8")) as Array<{
    name?: string;
    format?: { definition: string };
  }>;
  const patch = reference.find((tool) => tool.name === "apply_patch");
  assert.equal(patch?.format?.definition, APPLY_PATCH_LARK_GRAMMAR);
});

void test("every tool has a non-empty description of our own", () => {
  for (const slug of ["gpt-5.5", "gpt-5-codex", "o3", "whatever"]) {
    for (const spec of buildToolSpecs(modelInfoFor(slug))) {
      if (spec.type === "web_search") continue;
      assert.ok(spec.description.length > 10, `${slug}/${toolName(spec)}`);
    }
  }
});

void test("web_search is offered only when config gives it, last, in the reference's shape per mode", () => {
  assert.ok(!names(buildToolSpecs(modelInfoFor("gpt-5.5"))).includes("web_search"));
  const last = (slug: string, settings: WebSearchSettings): unknown => buildToolSpecs(withSearch(slug, settings)).at(-1);
  const images = { search_content_types: ["text", "image"] };
  assert.deepEqual(last("gpt-5.5", { mode: "cached" }), { type: "web_search", external_web_access: false, ...images });
  assert.deepEqual(last("gpt-5.5", { mode: "live" }), { type: "web_search", external_web_access: true, ...images });
  assert.deepEqual(last("gpt-5.5", { mode: "indexed" }), { type: "web_search", external_web_access: true, indexed_web_access: true, ...images });
  // Models without image search get no content types.
  assert.deepEqual(last("o3", { mode: "live" }), { type: "web_search", external_web_access: true });
  // [tools.web_search], key order included (it is part of the request bytes).
  const table = last("gpt-5.5", {
    mode: "live",
    contextSize: "high",
    allowedDomains: ["example.com", "b.org"],
    location: { country: "US", region: "MA", city: "Boston", timezone: "America/New_York" },
  });
  assert.equal(
    JSON.stringify(table),
    '{"type":"web_search","external_web_access":true,"filters":{"allowed_domains":["example.com","b.org"]},"user_location":{"type":"approximate","country":"US","region":"MA","city":"Boston","timezone":"America/New_York"},"search_context_size":"high","search_content_types":["text","image"]}',
  );
});

function withSearch(slug: string, webSearch: WebSearchSettings): ModelInfo {
  return { ...modelInfoFor(slug), webSearch };
}

void test("per-family tool sets", () => {
  assert.deepEqual(names(buildToolSpecs(modelInfoFor("gpt-5.5"))), [
    "exec_command",
    "write_stdin",
    "request_user_input",
    "apply_patch",
    "view_image",
    "get_goal",
    "create_goal",
    "update_goal",
    "tool_search",
  ]);
  assert.deepEqual(names(buildToolSpecs(modelInfoFor("gpt-5-codex"))), [
    "shell_command",
    "update_plan",
    "apply_patch",
    "view_image",
    "get_goal",
    "create_goal",
    "update_goal",
  ]);
  assert.deepEqual(names(buildToolSpecs(modelInfoFor("unknown-model"))), ["shell", "update_plan", "apply_patch", "get_goal", "create_goal", "update_goal"]);
  // features.goals = false takes the goal tools away.
  assert.deepEqual(names(buildToolSpecs({ ...modelInfoFor("unknown-model"), goalTools: false })), ["shell", "update_plan", "apply_patch"]);

  const codex = buildToolSpecs(modelInfoFor("gpt-5-codex"));
  assert.equal(codex.find((s) => "name" in s && s.name === "apply_patch")?.type, "custom");
  const plain = buildToolSpecs(modelInfoFor("unknown-model"));
  const patch = plain.find((s) => "name" in s && s.name === "apply_patch");
  assert.equal(patch?.type, "function");
  if (patch?.type === "function") assert.deepEqual(patch.parameters.required, ["input"]);
});

void test("shell, shell_command and update_plan schemas", () => {
  const [shell, plan] = buildToolSpecs(modelInfoFor("o3"));
  assert.ok(shell?.type === "function" && plan?.type === "function");
  assert.deepEqual(Object.keys(shell.parameters.properties ?? {}), [
    "command",
    "justification",
    "prefix_rule",
    "sandbox_permissions",
    "timeout_ms",
    "workdir",
  ]);
  assert.equal(shell.parameters.properties?.command?.type, "array");
  assert.deepEqual(shell.parameters.properties?.sandbox_permissions?.enum, ["use_default", "require_escalated"]);
  assert.deepEqual(shell.parameters.required, ["command"]);
  assert.equal(shell.parameters.additionalProperties, false);
  assert.equal(shell.strict, false);

  assert.equal(plan.name, "update_plan");
  assert.deepEqual(plan.parameters.required, ["plan"]);
  assert.deepEqual(plan.parameters.properties?.plan?.items?.properties?.status?.enum, [
    "pending",
    "in_progress",
    "completed",
  ]);

  const [shellCommand] = buildToolSpecs(modelInfoFor("gpt-5.1-codex-max"));
  assert.ok(shellCommand?.type === "function");
  assert.equal(shellCommand.name, "shell_command");
  assert.equal(shellCommand.parameters.properties?.command?.type, "string");
  assert.deepEqual(Object.keys(shellCommand.parameters.properties ?? {}), [
    "command",
    "justification",
    "login",
    "prefix_rule",
    "sandbox_permissions",
    "timeout_ms",
    "workdir",
  ]);
});

void test("chat conversion turns custom tools into functions and drops web_search", () => {
  const chat = toChatTools(buildToolSpecs(withSearch("gpt-5.5", { mode: "live" })));
  assert.deepEqual(
    chat.map((c) => c.function.name),
    ["exec_command", "write_stdin", "request_user_input", "apply_patch", "view_image", "get_goal", "create_goal", "update_goal"],
  );
  for (const c of chat) assert.equal(c.type, "function");
  const patch = chat.find((c) => c.function.name === "apply_patch");
  assert.deepEqual(patch?.function.parameters.required, ["input"]);
  assert.equal(patch?.function.parameters.properties?.input?.type, "string");
  assert.match(patch?.function.description ?? "", /\*\*\* Begin Patch/);
});
