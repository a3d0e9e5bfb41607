/**
 * The overlays that answer the session's questions (`question_asked`), one per kind of request,
 * each answered by one `answer_question` op with the question's key: a command (with its cwd, the model's reason, and "always allow this prefix"
 * when the model proposed a rule), a patch (with its diff), an MCP tool call (with its
 * arguments), the model's multiple-choice questions, and an MCP server's elicitation.
 * Keys: y approve once, a approve for the session, p allow the prefix, n deny, Esc deny and stop.
 */
import type { Op, QuestionAnswer } from "../protocol/ops.js";
import type { QuestionRequest } from "../protocol/events.js";
import type { ExecApprovalDecision, ReviewDecision } from "../protocol/policy.js";
import type { UserQuestion, UserQuestionAnswer } from "../protocol/user-questions.js";
import type { Theme } from "./parts/theme.js";
import { ChoiceOverlay, PickerOverlay, TextPromptOverlay, type Choice, type Overlay } from "./overlays.js";
import { displayCommand, prefixed, type CellStyle } from "./cells.js";
import { shellJoin } from "../util/shell-quote.js";

export interface QuestionContext {
  theme: Theme;
  style: CellStyle;
  submit(op: Op): string;
  close(overlay: Overlay): void;
}

/** At most this many detail lines (a diff, arguments) above the answers. */
const MAX_DETAIL = 24;

export function questionOverlay(key: string, msg: QuestionRequest, ctx: QuestionContext): Overlay {
  const t = ctx.theme;
  const reply = (answer: QuestionAnswer): Op => ({ type: "answer_question", key, answer });
  const decide = (decision: ExecApprovalDecision): Op => reply({ type: "decision", decision });
  /** One question: its title, detail lines and answers; the pick is closed and sent as `answer(value)`. */
  const ask = <T>(title: string, detail: (width: number) => string[], choices: Choice<T>[], escape: T, answer: (value: T) => Op): Overlay => {
    const overlay: ChoiceOverlay<T> = new ChoiceOverlay(t, title, detail, choices, escape, (value) => {
      ctx.close(overlay);
      ctx.submit(answer(value));
    });
    return overlay;
  };
  const deny = (label: string): Choice<ReviewDecision> => ({ key: "n", label, value: "denied" });
  switch (msg.type) {
    case "exec_approval_request": {
      const choices: Choice<ExecApprovalDecision>[] = [
        { key: "y", label: "Yes, run it", value: "approved" },
        { key: "a", label: "Yes, and don't ask again for this command in this session", value: "approved_for_session" },
      ];
      const prefix = msg.proposed_execpolicy_amendment;
      if (prefix && prefix.length > 0) {
        choices.push({
          key: "p",
          label: `Yes, and always allow commands that start with \`${shellJoin(prefix)}\``,
          value: { approved_execpolicy_amendment: { proposed_execpolicy_amendment: prefix } },
        });
      }
      choices.push(deny("No, and tell the agent what to do differently"));
      const detail = (w: number): string[] => [
        ...prefixed(t.fg("accent", "$ "), "  ", displayCommand(msg.command), w),
        t.dim(`in ${msg.cwd}`),
        ...(msg.reason ? prefixed(t.dim("reason: "), "        ", msg.reason, w) : []),
      ];
      return ask<ExecApprovalDecision>("Run this command?", detail, choices, "abort", decide);
    }
    case "apply_patch_approval_request": {
      const detail = (w: number): string[] => {
        const lines = Object.entries(msg.changes).flatMap(([path, change]) => ctx.style.diff(path, change, w));
        const shown = lines.slice(0, MAX_DETAIL);
        if (lines.length > shown.length) shown.push(t.dim(`… ${lines.length - shown.length} more lines`));
        if (msg.reason) shown.push(...prefixed(t.dim("reason: "), "        ", msg.reason, w));
        if (msg.grant_root) shown.push(t.dim(`and allow writing under ${msg.grant_root} for this session`));
        return shown;
      };
      const choices: Choice<ReviewDecision>[] = [
        { key: "y", label: "Yes, apply them", value: "approved" },
        { key: "a", label: "Yes, and don't ask again for these files in this session", value: "approved_for_session" },
        deny("No, and tell the agent what to do differently"),
      ];
      const title = `Apply these changes to ${Object.keys(msg.changes).length} file(s)?`;
      return ask<ReviewDecision>(title, detail, choices, "abort", decide);
    }
    case "mcp_tool_call_approval_request": {
      const detail = (w: number): string[] => {
        const args = JSON.stringify(msg.arguments ?? {}, null, 2).split("\n");
        return [t.fg("accent", `${msg.server}.${msg.tool}`), ...args.slice(0, MAX_DETAIL).flatMap((l) => prefixed("  ", "  ", l, w))];
      };
      const choices: Choice<ReviewDecision>[] = [
        { key: "y", label: "Yes, call it", value: "approved" },
        { key: "a", label: "Yes, and don't ask again for this tool in this session", value: "approved_for_session" },
        deny("No"),
      ];
      return ask<ReviewDecision>(msg.question, detail, choices, "abort", decide);
    }
    case "elicitation_request": {
      const choices: Choice<"accept" | "decline" | "cancel">[] = [
        { key: "y", label: "Accept", value: "accept" },
        { key: "n", label: "Decline", value: "decline" },
      ];
      const answer = (action: "accept" | "decline" | "cancel"): Op => reply({ type: "elicitation", action });
      return ask(`${msg.server_name} asks:`, (w) => prefixed("", "", msg.message, w), choices, "cancel", answer);
    }
    case "request_user_input":
      return new QuestionsOverlay(msg.questions, ctx, (answers) => reply({ type: "user_input", response: { answers } }));
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

  render(width: number): string[] {
    return this.current.render(width);
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
    const title = `${q.header ? `${q.header}: ` : ""}${q.question}`;
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
