/**
 * The overlays that answer the session's questions, one per request event, each answered by the
 * op keyed to it: a command (with its cwd, the model's reason, and "always allow this prefix"
 * when the model proposed a rule), a patch (with its diff), an MCP tool call (with its
 * arguments), the model's multiple-choice questions, and an MCP server's elicitation.
 * Keys: y approve once, a approve for the session, p allow the prefix, n deny, Esc deny and stop.
 */
import type { Op } from "../protocol/ops.js";
import type { EventMsg } from "../protocol/events.js";
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

type QuestionEvent = Extract<
  EventMsg,
  { type: "exec_approval_request" | "apply_patch_approval_request" | "mcp_tool_call_approval_request" | "request_user_input" | "elicitation_request" }
>;

/** At most this many detail lines (a diff, arguments) above the answers. */
const MAX_DETAIL = 24;

export function questionOverlay(msg: QuestionEvent, ctx: QuestionContext): Overlay {
  const t = ctx.theme;
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
      choices.push({ key: "n", label: "No, and tell the agent what to do differently", value: "denied" });
      const overlay: ChoiceOverlay<ExecApprovalDecision> = new ChoiceOverlay(
        t,
        "Run this command?",
        (w) => [
          ...prefixed(t.fg("accent", "$ "), "  ", displayCommand(msg.command), w),
          t.dim(`in ${msg.cwd}`),
          ...(msg.reason ? prefixed(t.dim("reason: "), "        ", msg.reason, w) : []),
        ],
        choices,
        "abort",
        (decision) => {
          ctx.close(overlay);
          ctx.submit({ type: "exec_approval", id: msg.call_id, decision });
        },
      );
      return overlay;
    }
    case "apply_patch_approval_request": {
      const overlay: ChoiceOverlay<ReviewDecision> = new ChoiceOverlay(
        t,
        `Apply these changes to ${Object.keys(msg.changes).length} file(s)?`,
        (w) => {
          const lines = Object.entries(msg.changes).flatMap(([path, change]) => ctx.style.diff(path, change, w));
          const shown = lines.slice(0, MAX_DETAIL);
          if (lines.length > shown.length) shown.push(t.dim(`… ${lines.length - shown.length} more lines`));
          if (msg.reason) shown.push(...prefixed(t.dim("reason: "), "        ", msg.reason, w));
          if (msg.grant_root) shown.push(t.dim(`and allow writing under ${msg.grant_root} for this session`));
          return shown;
        },
        [
          { key: "y", label: "Yes, apply them", value: "approved" },
          { key: "a", label: "Yes, and don't ask again for these files in this session", value: "approved_for_session" },
          { key: "n", label: "No, and tell the agent what to do differently", value: "denied" },
        ],
        "abort",
        (decision) => {
          ctx.close(overlay);
          ctx.submit({ type: "patch_approval", id: msg.call_id, decision });
        },
      );
      return overlay;
    }
    case "mcp_tool_call_approval_request": {
      const overlay: ChoiceOverlay<ReviewDecision> = new ChoiceOverlay(
        t,
        msg.question,
        (w) => {
          const args = JSON.stringify(msg.arguments ?? {}, null, 2).split("\n");
          return [t.fg("accent", `${msg.server}.${msg.tool}`), ...args.slice(0, MAX_DETAIL).flatMap((l) => prefixed("  ", "  ", l, w))];
        },
        [
          { key: "y", label: "Yes, call it", value: "approved" },
          { key: "a", label: "Yes, and don't ask again for this tool in this session", value: "approved_for_session" },
          { key: "n", label: "No", value: "denied" },
        ],
        "abort",
        (decision) => {
          ctx.close(overlay);
          ctx.submit({ type: "mcp_tool_call_approval", id: msg.call_id, decision });
        },
      );
      return overlay;
    }
    case "elicitation_request": {
      const overlay: ChoiceOverlay<"accept" | "decline" | "cancel"> = new ChoiceOverlay(
        t,
        `${msg.server_name} asks:`,
        (w) => prefixed("", "", msg.message, w),
        [
          { key: "y", label: "Accept", value: "accept" },
          { key: "n", label: "Decline", value: "decline" },
        ],
        "cancel",
        (decision) => {
          ctx.close(overlay);
          ctx.submit({ type: "resolve_elicitation", server_name: msg.server_name, request_id: msg.id, decision });
        },
      );
      return overlay;
    }
    case "request_user_input":
      return new QuestionsOverlay(msg.call_id, msg.questions, ctx);
  }
}

const OTHER = "\u0000other";

/** The model's questions one after another; the answers go back together at the end. */
class QuestionsOverlay implements Overlay {
  private index = 0;
  private current: Overlay;
  private readonly answers: Record<string, UserQuestionAnswer> = {};

  constructor(
    private readonly callId: string,
    private readonly questions: UserQuestion[],
    private readonly ctx: QuestionContext,
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
    this.ctx.submit({ type: "user_input_answer", id: this.callId, response: { answers: this.answers } });
  }
}
