import { test } from "node:test";
import assert from "node:assert/strict";
import { FAMILY_PREFIXES, modelInfoFor } from "../model/catalog.js";
import { buildToolSpecs } from "./specs.js";
import { HANDLERS } from "./registry.js";

/**
 * Every tool any model in the catalog is offered has a handler, with every option that changes
 * the list on and off. Hosted tools (web_search) are run by the provider and need none.
 */
void test("every tool offered to every model family has a handler", () => {
  const slugs = [...FAMILY_PREFIXES, "some-unknown-model"];
  assert.ok(slugs.length > 10, "the catalog lists its families");
  const offered = new Set<string>();
  for (const slug of slugs) {
    for (const webSearch of [null, { mode: "live" as const }]) {
      for (const spec of buildToolSpecs({ ...modelInfoFor(slug), webSearch })) {
        if (spec.type === "web_search" || spec.type === "tool_search") continue;
        offered.add(spec.name);
        assert.ok(HANDLERS[spec.name], `${slug} is offered ${spec.name}, which has no handler`);
      }
    }
  }
  // The sweep saw the optional tools, so the check above covered them.
  for (const name of ["request_user_input", "view_image", "update_plan", "exec_command", "shell", "shell_command", "apply_patch"]) {
    assert.ok(offered.has(name), `no family offers ${name}`);
  }
});
