/**
 * What a bracketed paste becomes in the composer.
 *
 * API:
 * - `normalizePaste(text)`: line endings as `\n` (terminals send `\r` for Enter in a paste).
 * - `PasteStore`: `insert(text)` gives what to put in the composer: the text itself, or for a
 *   large paste (over `LARGE_PASTE_CHARS` characters or `LARGE_PASTE_LINES` lines) a
 *   placeholder like `[Pasted Content 1200 chars]` whose content it keeps (the same content again,
 *   as when the history is walked back and forth, gets the same placeholder); `expand(text)` puts
 *   the contents back on submit (only placeholders still present; one deleted by the user is
 *   dropped); `clear()` after a submit. Every text that comes into the composer whole (a paste,
 *   a recalled history entry, an earlier message to edit, the external editor's result) goes
 *   through `insert`: the editor lays out and segments its text on every keystroke at a cost
 *   that grows faster than the text, so a blob must never be in it as text.
 * - `imagePathOf(text, cwd)`: the absolute path a pasted text names when it is one image file
 *   that exists (`.png`, `.jpg`/`.jpeg`, `.gif`, `.webp`; quoted, with backslash-escaped spaces as
 *   terminals drop them, `~/…`, or a `file://` URL), else null.
 * - `classifyPaste(text, cwd, store)`: the composer's one call: `{ kind: "image", path, mime,
 *   bytes }` for an image file (checked by its content with `util/image-file.ts`; the path goes
 *   to the core as a `local_image` input), else `{ kind: "text", insert }`.
 *
 * The placeholder wording and the 1,000-character threshold follow the reference, so a user
 * moving between the two sees the same thing; the line threshold is ours, since a paste of many
 * short lines also buries the prompt.
 */
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { extname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadImageFile } from "../../util/image-file.js";

export const LARGE_PASTE_CHARS = 1000;
export const LARGE_PASTE_LINES = 20;

const IMAGE_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp"]);

export function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export class PasteStore {
  /** Placeholder → the pasted text, in paste order. */
  private readonly pending = new Map<string, string>();

  /** What to insert for a paste (already normalised). */
  insert(text: string): string {
    const chars = codePoints(text);
    if (chars <= LARGE_PASTE_CHARS && lineCount(text, LARGE_PASTE_LINES) <= LARGE_PASTE_LINES) return text;
    for (const [placeholder, content] of this.pending) if (content === text) return placeholder;
    const base = `[Pasted Content ${chars} chars]`;
    let placeholder = base;
    for (let n = 2; this.pending.has(placeholder); n++) placeholder = `${base.slice(0, -1)} #${n}]`;
    this.pending.set(placeholder, text);
    return placeholder;
  }

  /** The composer text with every remaining placeholder replaced by its content. */
  expand(text: string): string {
    let out = text;
    for (const [placeholder, content] of this.pending) {
      const at = out.indexOf(placeholder);
      if (at >= 0) out = out.slice(0, at) + content + out.slice(at + placeholder.length);
    }
    return out;
  }

  /** How many large pastes are held. */
  get size(): number {
    return this.pending.size;
  }

  clear(): void {
    this.pending.clear();
  }
}

/** Characters as the user sees them counted (code points, not UTF-16 units), without an array per character. */
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A low surrogate completes the pair its high surrogate already counted.
    if (unit < 0xdc00 || unit > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) n++;
  }
  return n;
}

/** The number of lines, counted only up to `past + 1` (enough to tell "more than `past`"). */
function lineCount(text: string, past: number): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1 && lines <= past; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/** A pasted path as the file system knows it, or null when the text cannot be one path. */
function pathFromPaste(text: string, cwd: string): string | null {
  let s = text.trim();
  if (s === "" || s.includes("\n")) return null;
  const quote = s[0];
  if ((quote === '"' || quote === "'") && s.length >= 2 && s.endsWith(quote)) s = s.slice(1, -1);
  else if (process.platform !== "win32") s = s.replace(/\\(.)/g, "$1"); // `my\ shot.png` as dragged in
  if (s.startsWith("file://")) {
    try {
      return fileURLToPath(s);
    } catch {
      return null;
    }
  }
  if (s === "~" || s.startsWith("~/")) s = homedir() + s.slice(1);
  return isAbsolute(s) ? s : resolve(cwd, s);
}

export function imagePathOf(text: string, cwd: string): string | null {
  const path = pathFromPaste(text, cwd);
  if (path === null || !IMAGE_EXTENSIONS.has(extname(path).toLowerCase())) return null;
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

export type PasteResult = { kind: "text"; insert: string } | { kind: "image"; path: string; mime: string; bytes: number };

export async function classifyPaste(raw: string, cwd: string, store: PasteStore): Promise<PasteResult> {
  const text = normalizePaste(raw);
  const path = imagePathOf(text, cwd);
  if (path !== null) {
    try {
      const image = await loadImageFile(path);
      return { kind: "image", path, mime: image.mime, bytes: image.bytes };
    } catch {
      // Named like an image but not one (or too large): it stays text, as pasted.
    }
  }
  return { kind: "text", insert: store.insert(text) };
}
