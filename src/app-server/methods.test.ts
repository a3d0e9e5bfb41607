import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REFERENCE_METHODS } from "../app-server-protocol/methods.js";
import { METHODS } from "./methods/index.js";

const DOC = readFileSync(fileURLToPath(new URL("../../../docs/app-server.md", import.meta.url)), "utf8");

/** The method table's rows: the names in the first cell (wildcards as prefixes), and the status cell. */
function rows(): Array<{ names: string[]; status: string }> {
  return DOC.split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, names = "", status = ""] = line.split("|");
      return { names: [...names.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ""), status: status.trim() };
    });
}

function rowOf(method: string): { status: string } | undefined {
  return rows().find((r) => r.names.some((n) => n === method || (n.endsWith("/*") && method.startsWith(n.slice(0, -1)))));
}

void test("docs/app-server.md lists every method we serve as served, and every other method of the reference as not supported", () => {
  for (const method of Object.keys(METHODS)) assert.match(rowOf(method)?.status ?? "", /^served/, `${method} is served`);
  for (const method of REFERENCE_METHODS) {
    if (method in METHODS || method === "initialize") continue;
    assert.match(rowOf(method)?.status ?? "(missing)", /^not supported/, `${method} answers "not supported"`);
  }
});
