/** Core sessions that write a rollout file, and resuming them from it, for long-session tests. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Session } from "../../src/core/session.js";
import { RolloutRecorder } from "../../src/rollout/recorder.js";
import { loadThread } from "../../src/rollout/reconstruct.js";
import { uuidv7 } from "../../src/util/ids.js";
import type { ModelServer } from "./model-server.js";
import { newSession, type SessionOverrides } from "./session.js";

export interface Recorded {
  session: Session;
  path: string;
}

export function recordedSession(server: ModelServer, overrides: SessionOverrides = {}): Recorded {
  const home = mkdtempSync(join(tmpdir(), "codex-ts-home-"));
  const threadId = uuidv7();
  const recorder = RolloutRecorder.create({
    codexHome: home,
    threadId,
    cwd: home,
    originator: "codex_exec",
    cliVersion: "0.0.0",
    source: "exec",
    modelProvider: "openai",
    baseInstructions: overrides.baseInstructionsOverride ?? "",
  });
  return { session: newSession(server, { ...overrides, threadId, recorder }), path: recorder.path };
}

/** A new session continuing the thread recorded at `path` (appending to the same file). */
export function resumedSession(server: ModelServer, path: string, overrides: SessionOverrides = {}): Session {
  const thread = loadThread(path);
  return newSession(server, { ...overrides, recorder: RolloutRecorder.append(path), resume: { thread, warnOnModelChange: false } });
}
