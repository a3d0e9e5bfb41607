/**
 * Colours and text styles for every TUI part, chosen once from the environment.
 *
 * API:
 * - `colorLevel(env)`: 0 (no colour: `NO_COLOR`, `TERM=dumb`, `FORCE_COLOR=0`), 1 (16 colours),
 *   2 (256 colours: `TERM=*-256color`), 3 (truecolor: `COLORTERM=truecolor|24bit`);
 *   `FORCE_COLOR=1|2|3` picks a level outright.
 * - `createTheme(level)`: a `Theme` for that level; `theme()`: the process's theme (cached);
 *   `setTheme(t)`: replaces it (tests pin a level; `null` goes back to the environment's).
 * - `Theme.fg(role, text)`, `Theme.bg(role, text)`: the palette by meaning, not by hue;
 *   `bold`, `dim`, `italic`, `underline`, `inverse`, `strike`: attributes.
 * - `stripAnsi(text)`: text without escape sequences (tests and width checks).
 *
 * At level 0 no colour code is written at all; attributes (bold, dim, inverse, …) stay, since
 * they carry meaning (a selected row) and NO_COLOR is about colour only. At level 1 only the
 * 16 ANSI colours are used, so a terminal limited to them shows every role. Styles nest: an
 * inner style's reset re-opens the outer one. This module imports nothing, so it costs nothing
 * at start-up.
 */

export type ColorLevel = 0 | 1 | 2 | 3;

/** Foreground roles. */
export type Role =
  | "accent"
  | "muted"
  | "success"
  | "error"
  | "warning"
  | "heading"
  | "code"
  | "link"
  | "added"
  | "removed"
  | "match"
  | "user";

/** Background roles (plain text at levels 0 and 1, where a background would hide the text). */
export type BgRole = "addedLine" | "removedLine" | "selected" | "userMessage";

export interface Theme {
  readonly level: ColorLevel;
  fg(role: Role, text: string): string;
  bg(role: BgRole, text: string): string;
  bold(text: string): string;
  dim(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  inverse(text: string): string;
  strike(text: string): string;
}

/** A colour at each level: an SGR code for 16 colours, a 256-colour index, an RGB triple. */
interface Shade {
  ansi: number;
  x256: number;
  rgb: readonly [number, number, number];
}

const FG: Record<Role, Shade> = {
  accent: { ansi: 36, x256: 44, rgb: [86, 182, 194] },
  muted: { ansi: 90, x256: 245, rgb: [138, 138, 138] },
  success: { ansi: 32, x256: 71, rgb: [98, 181, 103] },
  error: { ansi: 31, x256: 167, rgb: [224, 108, 117] },
  warning: { ansi: 33, x256: 179, rgb: [229, 192, 123] },
  heading: { ansi: 35, x256: 140, rgb: [198, 120, 221] },
  code: { ansi: 36, x256: 73, rgb: [120, 190, 200] },
  link: { ansi: 34, x256: 75, rgb: [97, 175, 239] },
  added: { ansi: 32, x256: 71, rgb: [98, 181, 103] },
  removed: { ansi: 31, x256: 167, rgb: [224, 108, 117] },
  match: { ansi: 36, x256: 44, rgb: [86, 182, 194] },
  user: { ansi: 37, x256: 252, rgb: [208, 208, 208] },
};

const BG: Record<BgRole, Omit<Shade, "ansi">> = {
  addedLine: { x256: 22, rgb: [30, 56, 38] },
  removedLine: { x256: 52, rgb: [64, 30, 34] },
  selected: { x256: 237, rgb: [58, 58, 58] },
  userMessage: { x256: 236, rgb: [48, 48, 48] },
};

const ESC = "\u001b[";

/** Wraps `text` in `open`…`close`, re-opening after any inner `close` so nested styles survive. */
function wrap(open: string, close: string, text: string): string {
  if (text === "") return text;
  return open + text.split(close).join(close + open) + close;
}

export function colorLevel(env: NodeJS.ProcessEnv = process.env): ColorLevel {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") {
    if (force === "0" || force === "false") return 0;
    if (force === "2") return 2;
    if (force === "3") return 3;
    return 1;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return 0;
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "dumb") return 0;
  const colorterm = (env.COLORTERM ?? "").toLowerCase();
  if (colorterm === "truecolor" || colorterm === "24bit") return 3;
  if (term.includes("256color") || term.includes("truecolor") || term.includes("direct")) return 2;
  return 1;
}

export function createTheme(level: ColorLevel): Theme {
  const fgOpen = (s: Shade): string =>
    level === 3 ? `${ESC}38;2;${s.rgb.join(";")}m` : level === 2 ? `${ESC}38;5;${s.x256}m` : `${ESC}${s.ansi}m`;
  const bgOpen = (s: Omit<Shade, "ansi">): string =>
    level === 3 ? `${ESC}48;2;${s.rgb.join(";")}m` : `${ESC}48;5;${s.x256}m`;
  const attr = (on: number, off: number) => (text: string) => wrap(`${ESC}${on}m`, `${ESC}${off}m`, text);
  return {
    level,
    fg: (role, text) => (level === 0 ? text : wrap(fgOpen(FG[role]), `${ESC}39m`, text)),
    bg: (role, text) => (level < 2 ? text : wrap(bgOpen(BG[role]), `${ESC}49m`, text)),
    bold: attr(1, 22),
    dim: attr(2, 22),
    italic: attr(3, 23),
    underline: attr(4, 24),
    inverse: attr(7, 27),
    strike: attr(9, 29),
  };
}

let cached: Theme | null = null;

/** The theme for this process's environment, built on first use. */
export function theme(): Theme {
  cached ??= createTheme(colorLevel());
  return cached;
}

export function setTheme(t: Theme | null): void {
  cached = t;
}

// CSI sequences, OSC sequences (ended by BEL or ST) and APC markers (pi-tui's cursor marker).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?<>=]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b_[^\u0007]*\u0007/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}
