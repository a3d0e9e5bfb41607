import { test } from "node:test";
import assert from "node:assert/strict";
import { UndoJournal, decodeRecord, encodeRecord } from "./journal.js";
import type { TurnRecord } from "./snapshotter.js";

const record = (turnId: string): TurnRecord => ({
  turnId,
  storeId: "01a217e6-e2dd-7f6b-9e59-0d482f5955d9",
  ghostCommit: { id: "d".repeat(40), parent: "e".repeat(40), preexisting_untracked_files: ["notes.txt"], preexisting_untracked_dirs: [] },
  areas: [
    { root: "/repo", source: "git", repoObjects: "/repo/.git/objects", changes: [{ path: "a.txt", before: { mode: "100644", oid: "1".repeat(40) }, after: null }] },
    { root: "/", source: "blobs", changes: [{ path: "tmp/x", before: null, after: { mode: "120000", oid: "2".repeat(40) } }] },
  ],
});

void test("a turn's record is the reference's ghost_snapshot item with codex-ts's undo beside it, and reads back the same", () => {
  const payload = encodeRecord(record("t1"));
  assert.equal(payload.type, "ghost_snapshot");
  assert.deepEqual(Object.keys(payload.ghost_commit as object), ["id", "parent", "preexisting_untracked_files", "preexisting_untracked_dirs"]);
  assert.deepEqual(decodeRecord(JSON.parse(JSON.stringify(payload))), record("t1"));
  // The reference's own snapshots (no undo object) and damaged ones are not used.
  assert.equal(decodeRecord({ type: "ghost_snapshot", ghost_commit: { id: "x", parent: null, preexisting_untracked_files: [], preexisting_untracked_dirs: [] } }), null);
  const damaged = JSON.stringify(payload).replace(`"100644 ${"1".repeat(40)}"`, '"100644 not-an-oid"');
  assert.equal(decodeRecord(JSON.parse(damaged)), null);
});

void test("the journal replays undos and redos; a new turn's changes end what a redo could put back", () => {
  const journal = new UndoJournal();
  journal.replay({ kind: "snapshot", payload: encodeRecord(record("t1")) });
  journal.replay({ kind: "snapshot", payload: encodeRecord(record("t2")) });
  journal.replay({ kind: "completed", event: { type: "undo_completed", success: true, action: "undo", snapshots: ["t2"] } });
  assert.equal(journal.lastApplied()?.turnId, "t1");
  assert.deepEqual(journal.redoTarget().map((e) => e.turnId), ["t2"]);
  journal.replay({ kind: "completed", event: { type: "undo_completed", success: false, action: "redo", snapshots: ["t2"] } });
  assert.deepEqual(journal.redoTarget().map((e) => e.turnId), ["t2"], "a failed redo changes nothing");
  journal.add(record("t3"));
  assert.deepEqual(journal.redoTarget(), []);
  assert.deepEqual(journal.appliedSince("t1").map((e) => e.turnId), ["t1", "t3"]);
});
