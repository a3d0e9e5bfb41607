/**
 * The shape of an op handler: given the session's state, the submission id (which every event
 * it causes carries) and its op. The kernel's table (index.ts) maps every op type to one, so a
 * new op is a protocol type plus a handler in the family it belongs to.
 */
import type { Op } from "../../protocol/ops.js";
import type { SessionState } from "../session-state.js";

export type OpOf<K extends Op["type"]> = Extract<Op, { type: K }>;

export type OpHandler<K extends Op["type"]> = (session: SessionState, id: string, op: OpOf<K>) => void | Promise<void>;

/** Handlers for some op types (one family's module exports one of these). */
export type OpFamily<K extends Op["type"]> = { [T in K]: OpHandler<T> };
