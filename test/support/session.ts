/**
 * Drives the core through its seam (Ops in, Events out) against a real model client (Responses
 * by default) and the scripted model server, for tests that need more than `exec` shows.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Session } from "../../src/core/session.js";
import { ResponsesClient } from "../../src/model/responses-client.js";
import { builtinProviders } from "../../src/model/provider.js";
import type { Event, EventMsg, EventType, QuestionRequest } from "../../src/protocol/events.js";
import { sandboxPolicyFor } from "../../src/protocol/policy.js";
import type { SessionOptions, SessionSettings } from "../../src/core/session-options.js";
import { startModelServer, type ModelServer, type ScriptedTurn } from "./model-server.js";

/** Session options a test may replace; `settings` fields are merged into the defaults. */
export type SessionOverrides = Omit<Partial<SessionOptions>, "settings"> & { settings?: Partial<SessionSettings> };

/** A session on the Responses client unless `overrides.client` (e.g. a ChatClient) is given. */
export function newSession(server: ModelServer, overrides: SessionOverrides = {}): Session {
  const provider = { ...builtinProviders(server.url).openai!, requestMaxRetries: 0 };
  const cwd = mkdtempSync(join(tmpdir(), "codex-ts-session-"));
  const { settings, ...rest } = overrides;
  return new Session({
    client: new ResponsesClient(provider, { apiKey: "sk-test", originator: "codex_exec", userAgent: "test", env: {} }),
    streamMaxRetries: 0,
    developerInstructions: null,
    userInstructions: null,
    baseInstructionsOverride: null,
    shellEnvironmentPolicy: {},
    ...rest,
    settings: {
      model: "gpt-5.5",
      modelProviderId: "openai",
      cwd,
      approvalPolicy: "never",
      sandboxPolicy: sandboxPolicyFor("danger-full-access"),
      reasoningEffort: null,
      reasoningSummary: null,
      verbosity: null,
      ...settings,
    },
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

/** Reads events until submission `id` asks a question of `kind` (inside a question_asked); returns all read so far. */
export async function untilAsked(session: Session, id: string, kind: QuestionRequest["type"], seen: Event[] = []): Promise<Event[]> {
  for (;;) {
    const event = await session.nextEvent();
    if (!event) throw new Error(`session closed before a ${kind} question for ${id}; saw ${seen.map((e) => `${e.id}:${e.msg.type}`).join(", ")}`);
    seen.push(event);
    if (event.id === id && event.msg.type === "question_asked" && event.msg.request.type === kind) return seen;
  }
}

/** The requests of the questions asked among `events`, in order. */
export function requestsIn(events: Event[]): QuestionRequest[] {
  return events.flatMap((e) => (e.msg.type === "question_asked" ? [e.msg.request] : []));
}

/** The request of the last question asked among `events`. */
export function askedRequest(events: Event[]): QuestionRequest | undefined {
  return requestsIn(events).at(-1);
}

/** The turn id the task started by submission `id` announced in its task_started event. */
/**
 * A task_complete or turn_aborted event without its `duration_ms`, once that is checked to be a
 * whole number of milliseconds (it varies from run to run); other events as they are.
 */
export function timed(msg: EventMsg | undefined): unknown {
  if (msg?.type !== "task_complete" && msg?.type !== "turn_aborted") return msg;
  const { duration_ms, ...rest } = msg;
  assert.ok(Number.isInteger(duration_ms) && (duration_ms ?? -1) >= 0, `duration_ms of ${msg.type}: ${String(duration_ms)}`);
  return rest;
}

export function turnIdIn(events: Event[], id: string): string {
  for (const e of events) if (e.id === id && e.msg.type === "task_started") return e.msg.turn_id;
  throw new Error(`no task_started for submission ${id}`);
}

/** `overrides` may be a function of the server, for clients that need its URL. */
export async function withSession(
  turns: ScriptedTurn[],
  body: (session: Session, server: ModelServer) => Promise<void>,
  overrides: SessionOverrides | ((server: ModelServer) => SessionOverrides) = {},
): Promise<void> {
  const server = await startModelServer(turns);
  const session = newSession(server, typeof overrides === "function" ? overrides(server) : overrides);
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
