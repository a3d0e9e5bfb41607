import { test } from "node:test";
import assert from "node:assert/strict";
import { conflictsOf, planRestore, writesOf, type TurnChanges } from "./plan.js";
import type { FileState } from "./types.js";

const state = (c: string): FileState => ({ mode: "100644", oid: c.repeat(40).slice(0, 40) });
const A = state("a");
const B = state("b");
const C = state("c");

function turn(changes: Array<[string, FileState | null, FileState | null]>): TurnChanges {
  return { storeId: "s", areas: [{ root: "/r", source: "blobs", changes: changes.map(([path, before, after]) => ({ path, before, after })) }] };
}

void test("undoing several turns expects the newest turn's result and ends at the oldest turn's start", () => {
  const plan = planRestore([turn([["f", A, B]]), turn([["f", B, C], ["g", null, A]])], "undo");
  assert.deepEqual(
    plan.map((p) => [p.absolute, p.expected, p.target, p.editedBetween]),
    [
      ["/r/f", C, A, false],
      ["/r/g", A, null, false],
    ],
  );
  const redo = planRestore([turn([["f", A, B]]), turn([["f", B, C]])], "redo");
  assert.deepEqual(redo.map((p) => [p.expected, p.target]), [[A, C]]);
});

void test("an edit between two turns is a conflict for an undo of both, whatever is on disk now", () => {
  const D = state("d");
  const plan = planRestore([turn([["f", A, B]]), turn([["f", C, D]])], "undo");
  assert.equal(plan[0]?.editedBetween, true);
  assert.deepEqual(conflictsOf(plan, new Map([["/r/f", D]])).map((p) => p.absolute), ["/r/f"]);
});

void test("a path changed by hand is a conflict unless it is already as the undo leaves it; only differing paths are written", () => {
  const plan = planRestore([turn([["f", A, B], ["g", null, C], ["h", A, B]])], "undo");
  const now = new Map<string, FileState | null>([
    ["/r/f", B],
    ["/r/g", state("d")],
    ["/r/h", A],
  ]);
  assert.deepEqual(conflictsOf(plan, now).map((p) => p.absolute), ["/r/g"]);
  assert.deepEqual(writesOf(plan, now).map((p) => p.absolute), ["/r/f", "/r/g"]);
});
