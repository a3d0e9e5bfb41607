/**
 * Sub-agent tool calls (spawn, message, wait, reopen, close) as ACP tool calls: one call from
 * its begin event to its end, titled in words and naming the agents by nickname, failed when the
 * end says no agent was reached or one failed. A wait shows the answers of the agents that
 * finished (the editor sees no other trace of a sub-agent's work).
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { agentStatusMessage, agentStatusName, type CollabEventMsg } from "../protocol/collab.js";
import { agentName, collabLine } from "../presentation/collab-text.js";
import { textContent, type CallShape } from "./tool-calls.js";

type ToolCallEvent = Exclude<CollabEventMsg, { type: "sub_agent_status" }>;
type BeginEvent = Extract<ToolCallEvent, { type: `${string}_begin` }>;

const BEGIN_TITLES: Record<BeginEvent["type"], string> = {
  collab_agent_spawn_begin: "Starting a sub-agent",
  collab_agent_interaction_begin: "Messaging a sub-agent",
  collab_waiting_begin: "Waiting for sub-agents",
  collab_resume_begin: "Reopening a sub-agent",
  collab_close_begin: "Closing a sub-agent",
};

export function isCollabBegin(msg: ToolCallEvent): msg is BeginEvent {
  return msg.type in BEGIN_TITLES;
}

export function collabBeginShape(msg: BeginEvent): CallShape {
  return { title: BEGIN_TITLES[msg.type], kind: "other", locations: [] };
}

/** The finished call: its title, whether it failed, and what it says (the task sent, the answers waited for). */
export function collabEnd(msg: Exclude<ToolCallEvent, BeginEvent>): { shape: CallShape; failed: boolean; content: ToolCallContent[] } {
  const line = collabLine(msg);
  const title = line?.title ?? "Sub-agents";
  const answers =
    msg.type === "collab_waiting_end"
      ? msg.agent_statuses.flatMap((a) => {
          const said = agentStatusMessage(a.status);
          return said === null || said === "" ? [] : [`${agentName(a)}${agentStatusName(a.status) === "errored" ? " failed" : ""}: ${said}`];
        })
      : [];
  const detail = [line?.detail ?? null, ...answers].filter((d): d is string => d !== null && d !== "");
  return { shape: { title, kind: "other", locations: [] }, failed: line?.tone === "error", content: detail.map(textContent) };
}
