/**
 * Syntax colours for fenced code blocks, with highlight.js's core and a handful of common
 * languages, loaded on first use so start-up never pays for them.
 *
 * API:
 * - `highlightCode(code, lang)`: the block's lines, coloured through the theme when the
 *   highlighter is loaded and knows `lang`; plain lines otherwise (an unknown language, no
 *   colour, or not loaded yet, in which case loading starts). Fits pi-tui's Markdown
 *   `highlightCode` option.
 * - `loadHighlighter()`: loads it (once); resolves when ready. `preloadHighlighter(onReady)`:
 *   the same without waiting; call it when a turn starts, so the first code block that reaches
 *   scrollback is already coloured, and repaint in `onReady`.
 * - `highlightReady()`: whether it is loaded. `knownLanguage(lang)`: whether a name is covered.
 *
 * Languages are never guessed: guessing costs a full parse per grammar and often guesses wrong.
 * highlight.js takes about a quarter of a millisecond per line, so results are kept for the
 * last `CACHE_ENTRIES` blocks: a block drawn again (a repaint, a resize that does not change
 * it) costs a lookup. A block that is still streaming only has its new lines coloured (see
 * `colorGrown`).
 * Each line is styled on its own (a string or comment spanning lines is re-coloured on every
 * line), because the renderer prints lines separately.
 */
import type { HLJSApi, LanguageFn } from "highlight.js";
import { theme, type Role } from "./theme.js";

/** highlight.js grammar module → the fence names it answers to (its own aliases count too). */
const GRAMMARS = ["bash", "c", "cpp", "css", "diff", "go", "ini", "java", "javascript", "json", "markdown", "python", "ruby", "rust", "shell", "sql", "typescript", "xml", "yaml"];

/** highlight.js scopes → theme roles; scopes not listed stay plain. */
const SCOPE_ROLES: Record<string, Role> = {
  keyword: "heading",
  "selector-tag": "heading",
  doctag: "heading",
  string: "success",
  regexp: "success",
  symbol: "success",
  addition: "added",
  deletion: "removed",
  number: "warning",
  literal: "warning",
  attr: "warning",
  attribute: "warning",
  comment: "muted",
  quote: "muted",
  meta: "muted",
  title: "link",
  section: "link",
  built_in: "accent",
  type: "accent",
  variable: "error",
  "template-variable": "error",
  tag: "accent",
  name: "link",
};

/** Blocks whose coloured lines are kept, most recently used last. */
const CACHE_ENTRIES = 64;
/** Blocks longer than this are coloured every time rather than kept. */
const CACHE_MAX_CHARS = 256 * 1024;
const cache = new Map<string, string[]>();

let api: HLJSApi | null = null;
let loading: Promise<void> | null = null;

export function highlightReady(): boolean {
  return api !== null;
}

export function loadHighlighter(): Promise<void> {
  loading ??= (async () => {
    const core = (await import("highlight.js/lib/core")).default;
    await Promise.all(
      GRAMMARS.map(async (name) => {
        // Built as a string: the grammar modules ship no type declarations.
        const spec = `highlight.js/lib/languages/${name}`;
        const grammar = ((await import(spec)) as { default: LanguageFn }).default;
        core.registerLanguage(name, grammar);
      }),
    );
    api = core;
  })();
  return loading;
}

export function preloadHighlighter(onReady?: () => void): void {
  if (theme().level === 0) return; // nothing would be coloured
  loadHighlighter().then(
    () => onReady?.(),
    () => {}, // without highlight.js, code stays plain
  );
}

export function knownLanguage(lang: string | undefined): boolean {
  return api !== null && lang !== undefined && lang !== "" && api.getLanguage(lang.toLowerCase()) !== undefined;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
const unescape = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/** The role of the innermost span that has one. */
function roleOf(stack: (Role | null)[]): Role | null {
  for (let i = stack.length - 1; i >= 0; i--) if (stack[i]) return stack[i] as Role;
  return null;
}

/** Coloured lines, and for each whether no highlighted construct (string, comment, …) runs on past its end. */
interface Colored {
  lines: string[];
  closed: boolean[];
}

/** highlight.js's HTML as lines of ANSI-styled text. */
function htmlToLines(html: string): Colored {
  const t = theme();
  const out: Colored = { lines: [""], closed: [] };
  const stack: (Role | null)[] = [];
  const emit = (text: string): void => {
    const role = roleOf(stack);
    const parts = unescape(text).split("\n");
    parts.forEach((part, i) => {
      if (i > 0) {
        out.closed.push(stack.length === 0);
        out.lines.push("");
      }
      if (part !== "") out.lines[out.lines.length - 1] += role ? t.fg(role, part) : part;
    });
  };
  const tag = /<span class="([^"]*)">|<\/span>/g;
  let at = 0;
  for (let m = tag.exec(html); m !== null; m = tag.exec(html)) {
    if (m.index > at) emit(html.slice(at, m.index));
    if (m[1] === undefined) stack.pop();
    else {
      // "hljs-title function_" → "title"; the first hljs- class names the scope.
      const scope = /hljs-([\w-]+)/.exec(m[1])?.[1] ?? "";
      stack.push(SCOPE_ROLES[scope] ?? null);
    }
    at = m.index + m[0].length;
  }
  if (at < html.length) emit(html.slice(at));
  out.closed.push(true);
  return out;
}

function plainLines(code: string): string[] {
  return code.split("\n");
}

function colorAll(api: HLJSApi, body: string, lang: string): Colored {
  return htmlToLines(api.highlight(body, { language: lang, ignoreIllegals: true }).value);
}

/**
 * The block that was coloured last, per theme level and language. A code block still streaming
 * grows at its end: its lines up to the last one that closed everything are kept, and only the
 * rest is coloured again, so each repaint costs the new lines, not the whole block. The last
 * line is always redone (it may have been cut mid-token).
 */
let growing: { key: string; body: string; colored: Colored } | null = null;

function colorGrown(api: HLJSApi, previous: { body: string; colored: Colored }, body: string, lang: string): Colored {
  const { lines, closed } = previous.colored;
  let keep = lines.length - 2;
  while (keep >= 0 && closed[keep] !== true) keep--;
  if (keep < 0) return colorAll(api, body, lang);
  // The text after the kept lines starts after their keep + 1 newlines.
  let offset = -1;
  for (let n = 0; n <= keep; n++) offset = body.indexOf("\n", offset + 1);
  const tail = colorAll(api, body.slice(offset + 1), lang);
  return { lines: [...lines.slice(0, keep + 1), ...tail.lines], closed: [...closed.slice(0, keep + 1), ...tail.closed] };
}

export function highlightCode(code: string, lang?: string): string[] {
  const body = code.endsWith("\n") ? code.slice(0, -1) : code;
  if (theme().level === 0 || lang === undefined || lang === "") return plainLines(body);
  if (api === null) {
    void loadHighlighter().catch(() => {});
    return plainLines(body);
  }
  if (!knownLanguage(lang)) return plainLines(body);
  const language = lang.toLowerCase();
  // The theme level is part of the key: tests (and a changed setting) switch themes.
  const prefix = `${theme().level}\u0000${language}`;
  const key = `${prefix}\u0000${body}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return [...hit];
  }
  let colored: Colored;
  try {
    const last = growing;
    colored =
      last !== null && last.key === prefix && body.length > last.body.length && body.startsWith(last.body)
        ? colorGrown(api, last, body, language)
        : colorAll(api, body, language);
  } catch {
    return plainLines(body);
  }
  growing = { key: prefix, body, colored };
  if (body.length <= CACHE_MAX_CHARS) {
    cache.set(key, colored.lines);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  return [...colored.lines];
}
