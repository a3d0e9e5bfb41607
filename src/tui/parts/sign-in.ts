/**
 * The sign-in screen the UI shows instead of an error when a run has no credentials at all (no
 * API key in the environment or auth.json, no ChatGPT login).
 *
 * API:
 * - `SignInScreen(options, onDone)`: a component. It offers "Sign in with ChatGPT" (`1`/`c`) and
 *   "Provide your own API key" (`2`/`k`), Up/Down and Enter. ChatGPT sign-in calls
 *   `options.startChatGpt()` (the browser flow of src/auth/browser-login.ts), shows the address to
 *   open and waits; Esc there cancels it and comes back to the choice. A failure is shown above
 *   the choice, to try again. The API-key page says how to provide one (`OPENAI_API_KEY`, or
 *   `codex-ts login --with-api-key`); Esc or Enter comes back. Esc on the choice quits.
 *   `onDone({ email })` once the login is saved, `onDone("quit")` when the user leaves.
 * - `options.chatgptAllowed` false (`forced_login_method = "api"`) leaves out the ChatGPT row;
 *   `options.apiKeyAllowed` false (`forced_login_method = "chatgpt"`) the API-key one.
 */
import type { Component } from "@mariozechner/pi-tui";
import { matchesKey, wrapTextWithAnsi } from "../pi-tui.js";
import { theme } from "./theme.js";
import { errorMessage } from "../../util/errors.js";

/** A sign-in in progress: the address to open, and how it ends (the account's email, if known). */
export interface PendingSignIn {
  url: string;
  done: Promise<{ email: string | null }>;
  cancel(): void;
}

export interface SignInOptions {
  chatgptAllowed: boolean;
  apiKeyAllowed: boolean;
  startChatGpt(): Promise<PendingSignIn>;
  requestRender(): void;
}

/** How the screen ended: the user left, or signed in (as whom, when the token says). */
export type SignInOutcome = "quit" | { email: string | null };

type Choice = "chatgpt" | "api-key";
type Page = { kind: "choose" } | { kind: "starting" } | { kind: "waiting"; url: string; cancel(): void } | { kind: "api-key" };

export class SignInScreen implements Component {
  private page: Page = { kind: "choose" };
  private selected = 0;
  private failure: string | null = null;
  private readonly choices: { choice: Choice; key: string; label: string }[];

  constructor(
    private readonly options: SignInOptions,
    private readonly onDone: (outcome: SignInOutcome) => void,
  ) {
    this.choices = [
      ...(options.chatgptAllowed ? [{ choice: "chatgpt" as const, key: "c", label: "Sign in with ChatGPT (uses your plan)" }] : []),
      ...(options.apiKeyAllowed ? [{ choice: "api-key" as const, key: "k", label: "Provide your own API key (pay per use)" }] : []),
    ];
  }

  handleInput(data: string): void {
    const page = this.page;
    switch (page.kind) {
      case "choose":
        return this.onChooseKey(data);
      case "waiting":
        if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
          page.cancel();
          this.failure = null;
          this.page = { kind: "choose" };
        }
        return;
      case "api-key":
        if (matchesKey(data, "escape") || matchesKey(data, "enter")) this.page = { kind: "choose" };
        else if (matchesKey(data, "ctrl+c")) this.onDone("quit");
        return;
      case "starting":
        return;
    }
  }

  private onChooseKey(data: string): void {
    const n = this.choices.length;
    if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) return this.onDone("quit");
    if (matchesKey(data, "up")) this.selected = (this.selected + n - 1) % n;
    else if (matchesKey(data, "down")) this.selected = (this.selected + 1) % n;
    else if (matchesKey(data, "enter")) this.pick(this.choices[this.selected]?.choice);
    else this.pick(this.choices.find((c, i) => data === String(i + 1) || data.toLowerCase() === c.key)?.choice);
  }

  private pick(choice: Choice | undefined): void {
    if (choice === "api-key") this.page = { kind: "api-key" };
    else if (choice === "chatgpt") void this.signIn();
  }

  private async signIn(): Promise<void> {
    this.page = { kind: "starting" };
    this.failure = null;
    let pending: PendingSignIn;
    try {
      pending = await this.options.startChatGpt();
    } catch (err) {
      return this.failed(err);
    }
    const waiting: Page = { kind: "waiting", url: pending.url, cancel: () => pending.cancel() };
    this.page = waiting;
    this.options.requestRender();
    try {
      const { email } = await pending.done;
      this.onDone({ email });
    } catch (err) {
      // Esc cancelled it and the choice is already back: nothing to report.
      if (this.page === waiting) this.failed(err);
    }
  }

  private failed(err: unknown): void {
    this.failure = errorMessage(err);
    this.page = { kind: "choose" };
    this.options.requestRender();
  }

  invalidate(): void {}

  render(width: number): string[] {
    const t = theme();
    const w = Math.max(20, width);
    const wrap = (text: string): string[] => wrapTextWithAnsi(text, w);
    const lines = [...wrap(t.bold("Sign in to use codex-ts")), ""];
    const page = this.page;
    switch (page.kind) {
      case "choose":
        lines.push(...wrap("No API key or ChatGPT login was found. Sign in with your ChatGPT account, or use an OpenAI API key."), "");
        if (this.failure !== null) lines.push(...wrap(t.fg("error", this.failure)), "");
        this.choices.forEach((c, i) => {
          const chosen = i === this.selected;
          const row = `${chosen ? "›" : " "} ${i + 1}. ${c.label} ${t.dim(`(${c.key})`)}`;
          lines.push(...wrap(chosen ? t.fg("accent", row) : row));
        });
        lines.push("", ...wrap(t.fg("muted", "Enter to confirm · Esc to quit")));
        break;
      case "starting":
        lines.push(t.fg("muted", "Starting the sign-in…"));
        break;
      case "waiting":
        lines.push(...wrap("Finish signing in in your browser. If it did not open, open this address:"), "");
        // Cut at the width (not at word breaks): the address has none, and must stay whole.
        for (let i = 0; i < page.url.length; i += w) lines.push(t.fg("link", page.url.slice(i, i + w)));
        lines.push("", ...wrap(t.fg("muted", "Waiting for the browser… · Esc to cancel")));
        break;
      case "api-key":
        lines.push(
          ...wrap("Set OPENAI_API_KEY in your environment and start codex-ts again:"),
          "",
          t.fg("code", "  export OPENAI_API_KEY=sk-..."),
          "",
          ...wrap("or save the key in codex-ts's auth.json once, for every later run:"),
          "",
          t.fg("code", "  printenv OPENAI_API_KEY | codex-ts login --with-api-key"),
          "",
          ...wrap(t.fg("muted", "Esc to go back · Ctrl+C to quit")),
        );
        break;
    }
    return lines;
  }
}

/** `startChatGpt` for the screen: the browser sign-in of src/auth, saving into `codexHome`. */
export function chatgptSignIn(codexHome: string, env: NodeJS.ProcessEnv, allowedWorkspaceIds: string[] | null): () => Promise<PendingSignIn> {
  return async () => {
    const [{ startChatGptLogin }, { idTokenClaims }] = await Promise.all([import("../../auth/browser-login.js"), import("../../auth/jwt.js")]);
    const handle = await startChatGptLogin({ codexHome, env, allowedWorkspaceIds });
    return {
      url: handle.url,
      cancel: () => handle.cancel(),
      done: handle.done.then((login) => ({ email: idTokenClaims(login.tokens.id_token).email })),
    };
  };
}
