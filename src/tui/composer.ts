/**
 * The composer: pi-tui's Editor (multi-line, Enter submits, Shift+Enter / Ctrl+J add a line),
 * the slash command popup (the Editor's own, fed by the command table), the `@` file search
 * popup, pastes (a large one folded into a placeholder, a pasted image path attached as an
 * image), and Up/Down through the prompt history, which lives in the core (`history.jsonl`,
 * read entry by entry with `get_history_entry_request`). A recalled entry, or any text put in
 * whole, is folded like a paste: a 300 KB prompt in the history is a placeholder on screen and
 * is sent whole.
 */
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions, TUI } from "@mariozechner/pi-tui";
import { Editor, matchesKey } from "./pi-tui.js";
import type { Theme } from "./parts/theme.js";
import type { SlashCommand } from "./slash-commands.js";
import { FileSearchPopup, mentionText, type SearchableIndex } from "./parts/file-search-popup.js";
import { PasteStore, classifyPaste } from "./parts/paste.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** What the user sends: the text with pasted contents put back, and the images attached. */
export interface Submission {
  text: string;
  images: string[];
}

/** What the Editor needs from pi-tui's TUI class: a repaint request and the terminal's height. */
export interface EditorHost {
  requestRender(): void;
  readonly terminal: { readonly rows: number };
}

export interface ComposerOptions {
  cwd: () => string;
  /** The file index the `@` popup searches (built on first use). */
  fileIndex: () => SearchableIndex;
  fetchHistory: (offset: number) => void;
}

export class Composer {
  readonly editor: Editor;
  private readonly history: HistoryWalk;
  private readonly pastes = new PasteStore();
  private images: string[] = [];
  private mention: FileSearchPopup | null = null;

  constructor(
    private readonly host: EditorHost,
    private readonly theme: Theme,
    provider: AutocompleteProvider,
    private readonly options: ComposerOptions,
  ) {
    // The Editor only calls requestRender() and reads terminal.rows on its host; our inline
    // renderer provides both without pi-tui's full-screen TUI class.
    this.editor = new Editor(host as unknown as TUI, {
      borderColor: (s) => theme.dim(s),
      selectList: {
        selectedPrefix: (s) => theme.fg("accent", s),
        selectedText: (s) => theme.bold(theme.fg("accent", s)),
        description: (s) => theme.dim(s),
        scrollInfo: (s) => theme.dim(s),
        noMatch: (s) => theme.dim(s),
      },
    }, { paddingX: 1, autocompleteMaxVisible: 8 });
    this.editor.setAutocompleteProvider(provider);
    this.history = new HistoryWalk(options.fetchHistory, (text) => this.putText(text));
  }

  /** The submitted text with its pastes expanded and the attached images; the composer is emptied. */
  take(text: string): Submission {
    const submission = { text: this.pastes.expand(text), images: this.images };
    this.pastes.clear();
    this.images = [];
    return submission;
  }

  get text(): string {
    return this.editor.getText();
  }

  /** Replaces the text (an earlier message to edit, the external editor's result); a large one is folded like a paste. */
  setText(text: string): void {
    this.putText(text);
    if (text === "") this.images = [];
    this.updateMention();
  }

  /** The text with every placeholder's content put back (for the external editor). */
  get expandedText(): string {
    return this.pastes.expand(this.text);
  }

  /** Shows `text`, folded into a placeholder when large; returns what the editor now holds. */
  private putText(text: string): string {
    const shown = this.pastes.insert(text);
    this.editor.setText(shown);
    return shown;
  }

  render(width: number): string[] {
    const t = this.theme;
    const attached = this.images.map((p) => t.fg("accent", ` [image: ${p}]`));
    return [...attached, ...this.editor.render(width), ...(this.mention ? this.mention.render(width) : [])];
  }

  /** Whether a popup (commands or files) has the arrow keys. */
  get popupOpen(): boolean {
    return this.mention !== null || this.editor.isShowingAutocomplete();
  }

  /** Where the persistent history stands (from session_configured). */
  setHistory(logId: number, count: number): void {
    this.history.reset(logId, count);
  }

  /**
   * A prompt the user just sent, so Up finds it before the ones on disk. False when it repeats
   * the newest entry: the same prompt twice in a row is kept once.
   */
  remember(text: string): boolean {
    return this.history.remember(text);
  }

  historyEntry(logId: number, offset: number, text: string | null): void {
    this.history.answer(logId, offset, text);
  }

  get logId(): number {
    return this.history.logId;
  }

  /** Up/Down walk the history when the composer is empty or shows a recalled entry. */
  handleInput(data: string): void {
    if (data.startsWith(PASTE_START)) {
      void this.paste(data.slice(PASTE_START.length, data.endsWith(PASTE_END) ? -PASTE_END.length : undefined));
      return;
    }
    if (this.mention?.handleInput(data)) return;
    const browsing = this.text === "" || this.history.shows(this.text);
    if (browsing && !this.popupOpen && !this.text.includes("\n")) {
      if (matchesKey(data, "up") && this.history.older()) return;
      if (matchesKey(data, "down") && this.history.newer()) return;
    }
    this.editor.handleInput(data);
    this.updateMention();
  }

  private async paste(raw: string): Promise<void> {
    const result = await classifyPaste(raw, this.options.cwd(), this.pastes);
    if (result.kind === "image") this.images.push(result.path);
    else this.editor.insertTextAtCursor(result.insert);
    this.host.requestRender();
  }

  /** Opens, narrows or closes the `@` popup after an edit, from the word before the cursor. */
  private updateMention(): void {
    const cursor = this.editor.getCursor();
    const before = (this.editor.getLines()[cursor.line] ?? "").slice(0, cursor.col);
    const at = /(?:^|\s)@(\S*)$/.exec(before);
    if (!at) {
      this.mention = null;
      return;
    }
    this.mention ??= new FileSearchPopup(this.options.fileIndex(), {
      onSelect: (path) => this.insertMention(path),
      onCancel: () => (this.mention = null),
      requestRender: () => this.host.requestRender(),
    });
    this.mention.setQuery(at[1] ?? "");
  }

  /** Replaces the `@word` before the cursor with the picked path. */
  private insertMention(path: string): void {
    this.mention = null;
    const cursor = this.editor.getCursor();
    const lines = [...this.editor.getLines()];
    const line = lines[cursor.line] ?? "";
    const before = line.slice(0, cursor.col).replace(/@\S*$/, `${mentionText(path)} `);
    lines[cursor.line] = before + line.slice(cursor.col);
    this.editor.setText(lines.join("\n"));
  }
}

/**
 * The position in the prompt history: entries sent in this session first (newest last), then
 * the persistent ones, which arrive asynchronously from the core.
 */
class HistoryWalk {
  logId = 0;
  private persistent = 0;
  private readonly local: string[] = [];
  private readonly fetched = new Map<number, string | null>();
  /** How far back we are: 0 is "not browsing", 1 the newest entry. */
  private depth = 0;
  private shown: string | null = null;

  constructor(
    private readonly fetch: (offset: number) => void,
    /** Shows an entry; returns the text the composer then holds (a placeholder for a large one). */
    private readonly show: (text: string) => string,
  ) {}

  reset(logId: number, count: number): void {
    this.logId = logId;
    this.persistent = count;
    this.fetched.clear();
    this.depth = 0;
    // The newest entry, to tell whether the next prompt repeats it.
    if (count > 0) this.fetch(count - 1);
  }

  remember(text: string): boolean {
    this.depth = 0;
    this.shown = null;
    const newest = this.local.length > 0 ? this.local[this.local.length - 1] : this.fetched.get(this.persistent - 1);
    if (newest === text) return false;
    this.local.push(text);
    return true;
  }

  shows(text: string): boolean {
    return this.depth > 0 && text === this.shown;
  }

  older(): boolean {
    if (this.depth >= this.local.length + this.persistent) return false;
    this.depth++;
    this.display();
    return true;
  }

  newer(): boolean {
    if (this.depth === 0) return false;
    this.depth--;
    if (this.depth === 0) this.shown = this.show("");
    else this.display();
    return true;
  }

  answer(logId: number, offset: number, text: string | null): void {
    if (logId !== this.logId) return;
    this.fetched.set(offset, text);
    if (this.offsetAt(this.depth) === offset) this.display();
  }

  /** The persistent entry's offset at this depth, or null for a local one. */
  private offsetAt(depth: number): number | null {
    if (depth <= this.local.length) return null;
    return this.persistent - (depth - this.local.length);
  }

  private display(): void {
    const offset = this.offsetAt(this.depth);
    let text: string | null | undefined;
    if (offset === null) text = this.local[this.local.length - this.depth];
    else if (this.fetched.has(offset)) text = this.fetched.get(offset);
    else {
      this.fetch(offset);
      return;
    }
    this.shown = this.show(text ?? "");
  }
}

/** The Editor's popup source: slash commands typed at the start of the first line. */
export class SlashCompletions implements AutocompleteProvider {
  constructor(private readonly commands: () => SlashCommand[]) {}

  getSuggestions(lines: string[], cursorLine: number, cursorCol: number): Promise<AutocompleteSuggestions | null> {
    return Promise.resolve(this.suggest(lines, cursorLine, cursorCol));
  }

  private suggest(lines: string[], cursorLine: number, cursorCol: number): AutocompleteSuggestions | null {
    const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
    if (cursorLine === 0 && /^\/\S*$/.test(before)) {
      const query = before.slice(1).toLowerCase();
      const items: AutocompleteItem[] = this.commands()
        .filter((c) => [c.name, ...(c.aliases ?? [])].some((n) => n.toLowerCase().includes(query)))
        .sort((a, b) => Number(!a.name.startsWith(query)) - Number(!b.name.startsWith(query)))
        .map((c) => ({ value: `/${c.name}`, label: `/${c.name}`, description: c.argumentHint ? `${c.description} ${c.argumentHint}` : c.description }));
      return items.length > 0 ? { items, prefix: before } : null;
    }
    return null;
  }

  applyCompletion(lines: string[], cursorLine: number, cursorCol: number, item: AutocompleteItem, prefix: string): { lines: string[]; cursorLine: number; cursorCol: number } {
    const line = lines[cursorLine] ?? "";
    // The word typed so far, read from the line: suggestions computed for an earlier keystroke
    // (they arrive asynchronously) carry a shorter prefix than what is there now.
    // A command typed in full stays what it is, whatever an older list had highlighted.
    const typed = /^\/\S*$/.exec(line.slice(0, cursorCol))?.[0];
    const start = typed !== undefined ? 0 : cursorCol - prefix.length;
    const exact = typed !== undefined && this.commands().some((c) => [c.name, ...(c.aliases ?? [])].some((n) => `/${n}` === typed));
    const insert = `${exact ? typed : item.value} `;
    const next = [...lines];
    next[cursorLine] = line.slice(0, start) + insert + line.slice(cursorCol);
    return { lines: next, cursorLine, cursorCol: start + insert.length };
  }
}
