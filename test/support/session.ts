/**
 * Drives the core through its seam (Ops in, Events out) against the real Responses client and
 * the scripted model server, for tests that need more than `exec` shows.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../src/core/session.js";
import { ResponsesClient } from "../../src/model/responses-client.js";
import { builtinProviders } from "../../src/model/provider.js";
import type { Event, EventType } from "../../src/protocol/events.js";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import { startModelServer, type ModelServer, type ScriptedTurn } from "./model-server.js";

export function newSession(server: ModelServer): Session {
  const provider = { ...builtinProviders(server.url).openai!, requestMaxRetries: 0 };
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-session-"));
  return new Session({
    settings: {
      model: "gpt-5.5",
      modelProviderId: "openai",
      cwd,
      approvalPolicy: "never",
      sandboxPolicy: sandboxPolicyFor("danger-full-access"),
      reasoningEffort: null,
      reasoningSummary: null,
      verbosity: null,
    },
    client: new ResponsesClient(provider, { apiKey: "sk-test", originator: "codex_exec", userAgent: "test", env: {} }),
    streamMaxRetries: 0,
    developerInstructions: null,
    userInstructions: null,
    baseInstructionsOverride: null,
    shellEnvironmentPolicy: {},
  });
}

/** Reads events until one of `type` arrives for submission `id`; returns all read so far. */
export async function until(session: Session, id: string, type: EventType, seen: Event[] = []): Promise<Event[]> {
  for (;;) {
    const event = await session.nextEvent();
    if (!event) throw new Error(`session closed before ${type} for ${id}; saw ${seen.map((e) => `${e.id}:${e.msg.type}`).join(", ")}`);
    seen.push(event);
    if (event.id === id && event.msg.type === type) return seen;
  }
}

export async function withSession(turns: ScriptedTurn[], body: (session: Session, server: ModelServer) => Promise<void>): Promise<void> {
  const server = await startModelServer(turns);
  const session = newSession(server);
  try {
    await body(session, server);
    assert.deepEqual(server.violations, []);
  } finally {
    session.submit({ type: "shutdown" });
    await server.close();
  }
}

/** The event types submission `id` produced, in order. */
export const types = (events: Event[], id: string): string[] => events.filter((e) => e.id === id).map((e) => e.msg.type);
