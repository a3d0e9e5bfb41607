/**
 * The app's keyboard: keys go to the open overlay or the transcript pager, else Ctrl+C (clear,
 * interrupt, quit twice), Ctrl+D, Ctrl+T (transcript), `?` on an empty composer (the keys),
 * Esc (interrupt; twice: backtrack to an earlier message), Ctrl+G (external editor) and the
 * composer, whose submitted text becomes a slash command, a `!cmd` or a user message.
 */
import type { Op, RollbackRestore, UserInput } from "../protocol/ops.js";
import { matchesKey } from "./pi-tui.js";
import type { Composer } from "./composer.js";
import { count, type NoticeKind } from "./cells.js";
import { parseSlash, type SlashCommand, type SlashContext } from "./slash-commands.js";
import { switchPlanMode } from "./plan-mode.js";
import { errorMessage } from "../util/errors.js";

/** What the keyboard handling reads and drives of the app. */
export interface InputSurface extends SlashContext {
  readonly composer: Composer;
  readonly host: { submit(op: Op): string; quit(): void; externalEdit(text: string): Promise<string> };
  readonly running: boolean;
  /** The thread's user messages, oldest first. */
  readonly userMessages: readonly string[];
  /** What takes the keys instead of the composer (a question, the transcript pager), if anything. */
  keyTarget(): { handleInput(data: string): void } | null;
  setHint(hint: string | null): void;
  openTranscript(): void;
  showHelp(): void;
  notice(kind: NoticeKind, message: string): void;
  requestRender(): void;
  commands(): SlashCommand[];
}

export class KeyInput {
  private lastEsc = 0;
  private lastCtrlC = 0;

  constructor(private readonly app: InputSurface) {}

  handleInput(data: string): void {
    const target = this.app.keyTarget();
    if (target) {
      target.handleInput(data);
      this.app.requestRender();
      return;
    }
    this.app.setHint(null);
    if (matchesKey(data, "ctrl+c")) this.onCtrlC();
    else if (matchesKey(data, "ctrl+d") && this.app.composer.text === "") this.app.host.quit();
    else if (matchesKey(data, "ctrl+t")) this.app.openTranscript();
    else if (data === "?" && this.app.composer.text === "") this.app.showHelp();
    else if (matchesKey(data, "escape") && !this.app.composer.popupOpen) this.onEscape();
    else if (matchesKey(data, "ctrl+g")) void this.editExternally();
    else if (matchesKey(data, "shift+tab") && !this.app.composer.popupOpen) this.togglePlanMode();
    else this.app.composer.handleInput(data);
    this.app.requestRender();
  }

  private onCtrlC(): void {
    // Only a press on an idle, empty composer arms the quit; the next one within 2 s quits.
    const now = Date.now();
    const armed = now - this.lastCtrlC < 2000;
    this.lastCtrlC = 0;
    if (this.app.composer.text !== "") {
      this.app.composer.setText("");
    } else if (this.app.running) {
      this.app.host.submit({ type: "interrupt" });
    } else if (armed) {
      this.app.host.quit();
    } else {
      this.app.setHint("Press Ctrl+C again to quit");
      this.lastCtrlC = now;
    }
  }

  private onEscape(): void {
    if (this.app.running) {
      this.app.host.submit({ type: "interrupt" });
      return;
    }
    if (this.app.composer.text !== "") return;
    const now = Date.now();
    if (now - this.lastEsc < 1000) {
      this.lastEsc = 0;
      void this.backtrack();
    } else {
      this.lastEsc = now;
      if (this.app.userMessages.length > 0) this.app.setHint("Press Esc again to edit an earlier message");
    }
  }

  /**
   * Esc Esc: pick an earlier user message, then what goes back to how it was before it: the
   * conversation (the turns from it on are dropped and its text comes back in the composer to
   * be edited and sent again), the files those turns changed, or both (`thread_rollback`).
   */
  private async backtrack(): Promise<void> {
    const n = this.app.userMessages.length;
    if (n === 0) return;
    const items = this.app.userMessages
      .map((m, i) => ({ value: String(i), label: m.split("\n")[0] ?? "", description: `${count(n - i, "turn")} back` }))
      .reverse();
    const picked = await this.app.pick("Go back to an earlier message", items);
    if (!picked) return;
    const index = Number(picked.value);
    const restore = await this.app.choose<RollbackRestore | null>(
      "Restore what to how it was before this message?",
      [
        { key: "c", label: "Conversation only (files stay)", value: "conversation" },
        { key: "f", label: "Code only (conversation stays)", value: "code" },
        { key: "b", label: "Both conversation and code", value: "both" },
      ],
      null,
    );
    if (restore === null) return;
    this.app.undoFlow.rollback(n - index, restore, this.app.userMessages[index] ?? "");
    this.app.requestRender();
  }

  /** Shift+Tab: plan mode on or off, between turns (a running turn keeps the mode it started in). */
  private togglePlanMode(): void {
    if (this.app.running) return this.app.setHint("Plan mode switches between turns: wait, or press Esc first");
    switchPlanMode(this.app);
  }

  private async editExternally(): Promise<void> {
    try {
      this.app.composer.setText(await this.app.host.externalEdit(this.app.composer.expandedText));
    } catch (err) {
      this.app.notice("error", errorMessage(err));
    }
    this.app.requestRender();
  }

  submit(raw: string): void {
    const { text: expanded, images } = this.app.composer.take(raw);
    const text = expanded.trim();
    if (text === "" && images.length === 0) return;
    const slash = parseSlash(text);
    const command = slash ? this.app.commands().find((c) => c.name === slash.name || c.aliases?.includes(slash.name)) : undefined;
    if (slash && command) {
      if (this.app.running && !command.duringTask) {
        this.app.notice("warning", `/${command.name} cannot run while a turn is running; wait or press Esc first.`);
        return;
      }
      void Promise.resolve(command.run(this.app, slash.args)).catch((err: unknown) => this.app.error(`/${command.name}: ${errorMessage(err)}`));
      return;
    }
    if (slash && !slash.name.includes("/")) {
      this.app.notice("error", `Unknown command /${slash.name}. Type / to see the commands.`);
      return;
    }
    if (text.startsWith("!") && text.length > 1) {
      this.app.host.submit({ type: "run_user_shell_command", command: text.slice(1).trim() });
      return;
    }
    this.sendMessage(text, images);
  }

  /** A message from the user: a new turn, or steering when a turn is running. */
  sendMessage(text: string, images: string[] = []): void {
    // The same prompt twice in a row is one history entry.
    if (this.app.composer.remember(text)) this.app.host.submit({ type: "add_to_history", text });
    const items: UserInput[] = [...images.map((path): UserInput => ({ type: "local_image", path })), { type: "text", text }];
    this.app.host.submit(this.app.running ? { type: "user_input", items } : { type: "user_turn", items });
  }
}
