/**
 * The overlays that answer the session's questions (`question_asked`), one per kind of request,
 * each answered by one `answer_question` op with the question's key: a command (with its cwd, the model's reason, and "always allow this prefix"
 * when the model proposed a rule), a patch (with its diff), an MCP tool call (with its
 * arguments), the model's multiple-choice questions, and an MCP server's elicitation.
 * Keys: y approve once, a approve for the session, p allow the prefix; n and Esc stop the turn so
 * the user can say what to do instead (the answer the labels promise). Each answer is also kept
 * in the conversation as a decision cell (`decisionOf`), drawn from the question_resolved event
 * that carries it, live and in a resumed session's redraw alike.
 */
import type { Op, QuestionAnswer } from "../protocol/ops.js";
import type { QuestionRequest } from "../protocol/events.js";
import type { ExecApprovalDecision, ReviewDecision } from "../protocol/policy.js";
import type { UserQuestion, UserQuestionAnswer } from "../protocol/user-questions.js";
import type { Theme } from "./parts/theme.js";
import { ChoiceOverlay, PickerOverlay, TextPromptOverlay, type Choice, type Overlay, type QuestionDetail } from "./overlays.js";
import { count, displayCommand, prefixed, type CellStyle } from "./cells.js";
import type { Decision, DecisionSubject } from "./decision-cells.js";
import { displayPath } from "./parts/diff-view.js";
import { shellJoin } from "../util/shell-quote.js";

export interface QuestionContext {
  theme: Theme;
  style: CellStyle;
  /** The working directory (file names are shown relative to it). */
  cwd: string;
  submit(op: Op): string;
  close(overlay: Overlay): void;
  /** Set when a sub-agent asks (through its parent): how it is named, before each question. */
  asker?: string;
}

/** At most this many files are listed under a patch question (all of them are in its diff). */
const MAX_FILES = 4;

export function questionOverlay(key: string, msg: QuestionRequest, ctx: QuestionContext): Overlay {
  const t = ctx.theme;
  const reply = (answer: QuestionAnswer): Op => ({ type: "answer_question", key, answer });
  const decide = (decision: ExecApprovalDecision): Op => reply({ type: "decision", decision });
  /** One question: its title, detail and answers; the pick is closed and sent as `answer(value)`. */
  const ask = <T extends Decision>(title: string, detail: QuestionDetail, choices: Choice<T>[], escape: T, answer: (value: T) => Op): Overlay => {
    const overlay: ChoiceOverlay<T> = new ChoiceOverlay(t, askedBy(ctx, title), detail, choices, escape, (value) => {
      ctx.close(overlay);
      ctx.submit(answer(value));
    });
    return overlay;
  };
  const stop: Choice<ReviewDecision> = { key: "n", label: "No, and tell the agent what to do differently", value: "abort" };
  switch (msg.type) {
    case "exec_approval_request": {
      const choices: Choice<ExecApprovalDecision>[] = [
        { key: "y", label: "Yes, run it", value: "approved" },
        { key: "a", label: "Yes, and allow it for the rest of this session", value: "approved_for_session" },
      ];
      const prefix = msg.proposed_execpolicy_amendment;
      if (prefix && prefix.length > 0) {
        choices.push({
          key: "p",
          label: `Yes, and always allow \`${shellJoin(prefix)}\` commands`,
          value: { approved_execpolicy_amendment: { proposed_execpolicy_amendment: prefix } },
        });
      }
      choices.push(stop);
      const detail: QuestionDetail = {
        body: (w) => prefixed(t.fg("accent", "$ "), "  ", displayCommand(msg.command), w),
        bottom: (w) => [t.dim(`in ${msg.cwd}`), ...(msg.reason ? prefixed(t.dim("reason: "), "        ", msg.reason, w) : [])],
      };
      return ask<ExecApprovalDecision>("Run this command?", detail, choices, "abort", decide);
    }
    case "apply_patch_approval_request": {
      const files = Object.keys(msg.changes).map((p) => displayPath(p, ctx.cwd));
      const detail: QuestionDetail = {
        top: (w) => {
          // Whole names, wrapped: the end of a path is the part that tells files apart.
          const listed = files.slice(0, files.length > MAX_FILES ? MAX_FILES - 1 : MAX_FILES).flatMap((f) => prefixed("", "  ", t.fg("accent", f), w));
          return files.length > MAX_FILES ? [...listed, t.dim(`… and ${count(files.length - MAX_FILES + 1, "more file")}`)] : listed;
        },
        body: (w) => Object.entries(msg.changes).flatMap(([path, change]) => ctx.style.diff(path, change, w)),
        bottom: (w) => [
          ...(msg.reason ? prefixed(t.dim("reason: "), "        ", msg.reason, w) : []),
          // The reason usually names the folder already.
          ...(msg.grant_root && !msg.reason?.includes(msg.grant_root) ? prefixed("", "", t.dim(`and allow writing under ${msg.grant_root} for this session`), w) : []),
        ],
      };
      const choices: Choice<ReviewDecision>[] = [
        { key: "y", label: "Yes, apply them", value: "approved" },
        { key: "a", label: "Yes, and allow edits to these files this session", value: "approved_for_session" },
        stop,
      ];
      const title = `Apply these changes to ${count(files.length, "file")}?`;
      return ask<ReviewDecision>(title, detail, choices, "abort", decide);
    }
    case "mcp_tool_call_approval_request": {
      const detail: QuestionDetail = {
        top: () => [t.fg("accent", `${msg.server}.${msg.tool}`)],
        body: (w) => JSON.stringify(msg.arguments ?? {}, null, 2).split("\n").flatMap((l) => prefixed("  ", "  ", l, w)),
      };
      const choices: Choice<ReviewDecision>[] = [
        { key: "y", label: "Yes, call it", value: "approved" },
        { key: "a", label: "Yes, and allow this tool this session", value: "approved_for_session" },
        stop,
      ];
      return ask<ReviewDecision>(msg.question, detail, choices, "abort", decide);
    }
    case "elicitation_request": {
      const choices: Choice<"accept" | "decline" | "cancel">[] = [
        { key: "y", label: "Accept", value: "accept" },
        { key: "n", label: "Decline", value: "decline" },
      ];
      const answer = (action: "accept" | "decline" | "cancel"): Op => reply({ type: "elicitation", action });
      return ask(`${msg.server_name} asks:`, { body: (w) => prefixed("", "", msg.message, w) }, choices, "cancel", answer);
    }
    case "request_user_input":
      return new QuestionsOverlay(msg.questions, ctx, (answers) => reply({ type: "user_input", response: { answers } }));
  }
}

/** A question's title, naming the sub-agent that asks it. */
function askedBy(ctx: QuestionContext, title: string): string {
  return ctx.asker ? `${ctx.asker} asks: ${title}` : title;
}

/**
 * What the user's answer to a question says, as its decision cell shows it: what was asked about
 * and the decision; null for answers that are not a decision (the model's questions).
 */
export function decisionOf(request: QuestionRequest, answer: QuestionAnswer, cwd: string): { subject: DecisionSubject; decision: Decision } | null {
  if (answer.type === "elicitation" && request.type === "elicitation_request") {
    return { subject: { kind: "elicitation", server: request.server_name }, decision: answer.action };
  }
  if (answer.type !== "decision") return null;
  switch (request.type) {
    case "exec_approval_request":
      return { subject: { kind: "command", command: request.command }, decision: answer.decision };
    case "apply_patch_approval_request":
      return { subject: { kind: "patch", files: Object.keys(request.changes).map((p) => displayPath(p, cwd)) }, decision: answer.decision };
    case "mcp_tool_call_approval_request":
      return { subject: { kind: "mcp_tool", server: request.server, tool: request.tool }, decision: answer.decision };
    default:
      return null;
  }
}

const OTHER = "\u0000other";

/** The model's questions one after another; the answers go back together at the end. */
class QuestionsOverlay implements Overlay {
  private index = 0;
  private current: Overlay;
  private readonly answers: Record<string, UserQuestionAnswer> = {};

  constructor(
    private readonly questions: UserQuestion[],
    private readonly ctx: QuestionContext,
    private readonly reply: (answers: Record<string, UserQuestionAnswer>) => Op,
  ) {
    this.current = this.overlayFor(0);
  }

  render(width: number, maxHeight?: number): string[] {
    return this.current.render(width, maxHeight);
  }

  handleInput(data: string): void {
    this.current.handleInput(data);
  }

  invalidate(): void {
    this.current.invalidate();
  }

  private overlayFor(i: number): Overlay {
    const q = this.questions[i];
    if (!q) return this;
    const title = askedBy(this.ctx, `${q.header ? `${q.header}: ` : ""}${q.question}`);
    if (!q.options || q.options.length === 0) return new TextPromptOverlay(this.ctx.theme, title, (text) => this.answer(text));
    const items = q.options.map((o) => ({ value: o.label, label: o.label, description: o.description }));
    if (q.isOther) items.push({ value: OTHER, label: "Other…", description: "type your own answer" });
    return new PickerOverlay(this.ctx.theme, title, items, (item) => {
      if (item?.value === OTHER) this.current = new TextPromptOverlay(this.ctx.theme, q.question, (text) => this.answer(text));
      else this.answer(item ? item.value : null);
    });
  }

  /** Records one answer (null: skipped) and moves on; after the last, sends them all. */
  private answer(text: string | null): void {
    const q = this.questions[this.index];
    if (q && text !== null) this.answers[q.id] = { answers: [text] };
    this.index++;
    if (this.index < this.questions.length) {
      this.current = this.overlayFor(this.index);
      return;
    }
    this.ctx.close(this);
    this.ctx.submit(this.reply(this.answers));
  }
}
