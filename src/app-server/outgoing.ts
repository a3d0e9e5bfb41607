/** What the server sends that is not a response: notifications, before the connection stamps them. */
import type { ThreadItem } from "../app-server-protocol/v2.js";

export interface Outgoing {
  method: string;
  params: object;
}

/** `item/started` and `item/completed` params (the start time on one, the end time on the other). */
export interface ItemNotification {
  item: ThreadItem;
  threadId: string;
  turnId: string;
  startedAtMs?: number | null;
  completedAtMs?: number | null;
  contentTokenCount?: null;
}
