/**
 * What the user answered to a question, kept in the conversation as one line, as the reference
 * keeps it: "✔ You approved running `make test` this time", "✔ … for the rest of this session",
 * "✔ You allowed commands that start with `npm test` from now on", "✗ You canceled the request to
 * run `rm -rf build`". A sub-agent's question names it ("You approved Noether running `ls` this
 * time"). A pure function of the question and the answer, like the other cells.
 */
import type { ExecApprovalDecision, ReviewDecision } from "../protocol/policy.js";
import { count, displayCommand, prefixed, printable, type CellStyle } from "./cells.js";
import { shellJoin } from "../util/shell-quote.js";
import { truncateToWidth } from "./pi-tui.js";

/** What a question asked about. */
export type DecisionSubject =
  | { kind: "command"; command: string[] }
  | { kind: "patch"; files: string[] }
  | { kind: "mcp_tool"; server: string; tool: string }
  | { kind: "elicitation"; server: string };

export type Decision = ExecApprovalDecision | ReviewDecision | "accept" | "decline" | "cancel";

/** The subject is cut to this many characters, so a long script keeps the line short. */
const MAX_SUBJECT = 80;

export function decisionCell(subject: DecisionSubject, decision: Decision, s: CellStyle, width: number, asker: string | null = null): string[] {
  const t = s.theme;
  const { approved, text } = decisionText(subject, decision, asker);
  const mark = approved ? t.fg("success", "✔ ") : t.fg("error", "✗ ");
  return [...prefixed(mark, "  ", text, width), ""];
}

function decisionText(subject: DecisionSubject, decision: Decision, asker: string | null): { approved: boolean; text: string } {
  const what = subjectText(subject, asker);
  if (typeof decision === "object") {
    const prefix = shellJoin(decision.approved_execpolicy_amendment.proposed_execpolicy_amendment);
    return { approved: true, text: `You allowed commands that start with ${quoted(prefix)} from now on` };
  }
  switch (decision) {
    case "approved":
      return { approved: true, text: `You approved ${what.approve} this time` };
    case "approved_for_session":
      return { approved: true, text: `You approved ${what.approve} for the rest of this session` };
    case "accept":
      return { approved: true, text: `You accepted the request from ${what.approve}` };
    case "denied":
    case "decline":
      return { approved: false, text: `You declined ${what.refuse}` };
    case "abort":
    case "cancel":
      return { approved: false, text: `You canceled ${what.refuse}` };
  }
}

/** How the subject reads after "You approved …" and after "You canceled …" (a sub-agent's, when `asker` names one). */
function subjectText(subject: DecisionSubject, asker: string | null): { approve: string; refuse: string } {
  const who = asker === null ? "" : `${asker} `;
  const whose = asker === null ? "the" : `${asker}'s`;
  switch (subject.kind) {
    case "command": {
      const cmd = quoted(displayCommand(subject.command));
      return { approve: `${who}running ${cmd}`, refuse: `${whose} request to run ${cmd}` };
    }
    case "patch": {
      const files = subject.files.length === 1 ? quoted(subject.files[0] ?? "") : count(subject.files.length, "file");
      return { approve: `${whose} edits to ${files}`, refuse: `${whose} edits to ${files}` };
    }
    case "mcp_tool": {
      const tool = quoted(`${subject.server}.${subject.tool}`);
      return { approve: `${who}calling ${tool}`, refuse: `${whose} call to ${tool}` };
    }
    case "elicitation":
      return { approve: subject.server, refuse: `the request from ${subject.server}` };
  }
}

/** One line of the subject, in backticks, cut with "…" when long. */
function quoted(text: string): string {
  const line = printable(text.split("\n")[0] ?? "");
  const more = text.includes("\n") || line.length > MAX_SUBJECT;
  return `\`${more ? `${truncateToWidth(line, MAX_SUBJECT - 1, "")}…` : line}\``;
}
