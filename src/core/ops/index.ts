/**
 * Every op type and its handler, by family. The mapped type makes a missing handler a compile
 * error, so adding an op to protocol/ops.ts is finished by adding its handler to a family here.
 */
import type { Op } from "../../protocol/ops.js";
import type { SessionState } from "../session-state.js";
import { historyOps } from "./history.js";
import { hookOps } from "./hooks.js";
import { lifecycleOps } from "./lifecycle.js";
import { listingOps } from "./listings.js";
import { mcpOps } from "./mcp.js";
import { questionOps } from "./questions.js";
import { reviewOps } from "./review.js";
import { turnOps } from "./turns.js";
import { goalOps } from "./goals.js";
import { undoOps } from "./undo.js";
import type { OpFamily } from "./types.js";

const HANDLERS: OpFamily<Op["type"]> = {
  ...turnOps,
  ...questionOps,
  ...historyOps,
  ...listingOps,
  ...reviewOps,
  ...mcpOps,
  ...lifecycleOps,
  ...hookOps,
  ...goalOps,
  ...undoOps,
};

/** Runs the handler of `op`. */
export function handleOp(session: SessionState, id: string, op: Op): void | Promise<void> {
  const handler = HANDLERS[op.type] as (session: SessionState, id: string, op: Op) => void | Promise<void>;
  return handler(session, id, op);
}
