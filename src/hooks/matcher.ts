/**
 * What a group's `matcher` selects, as the reference reads it: absent, `""` or `*` matches
 * everything; a matcher made only of letters, digits, `_` and `|` is a list of exact names
 * (`Edit|Write`); anything else is a regular expression searched anywhere in the name
 * (`^Bash$`, `mcp__memory__.*`). Names are matched case-sensitively.
 *
 * The reference's expressions are Rust's: no look-around and no back-references, inline flags
 * such as `(?i)` allowed. Those are refused and translated here so one hooks.json means the same
 * in both.
 */

/** Why `matcher` cannot be used, or null when it can. */
export function matcherProblem(matcher: string): string | null {
  if (matchesEverything(matcher) || isNameList(matcher)) return null;
  const unsupported = /\(\?<?[=!]|\\[1-9]/.exec(matcher);
  if (unsupported) return `\`${unsupported[0]}\`: look-around and back-references are not supported`;
  try {
    compile(matcher);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Whether the group applies to a call named by any of `inputs` (the name first, then its aliases). */
export function matcherSelects(matcher: string | null, inputs: readonly string[]): boolean {
  if (matcher === null || matchesEverything(matcher)) return true;
  if (isNameList(matcher)) {
    const names = matcher.split("|");
    return inputs.some((input) => names.includes(input));
  }
  let pattern: RegExp;
  try {
    pattern = compile(matcher);
  } catch {
    return false;
  }
  return inputs.some((input) => pattern.test(input));
}

function matchesEverything(matcher: string): boolean {
  return matcher === "" || matcher === "*";
}

function isNameList(matcher: string): boolean {
  return /^[A-Za-z0-9_|]+$/.test(matcher);
}

const compiled = new Map<string, RegExp>();

/**
 * A leading `(?ims)` becomes the expression's flags (JavaScript has no inline flags), and Rust's
 * `(?P<name>…)` groups are written `(?<name>…)`.
 */
function compile(matcher: string): RegExp {
  const cached = compiled.get(matcher);
  if (cached) return cached;
  const inline = /^\(\?([ims]+)\)/.exec(matcher);
  const flags = `u${[...new Set(inline?.[1] ?? "")].join("")}`;
  const source = (inline ? matcher.slice(inline[0].length) : matcher).replaceAll("(?P<", "(?<");
  const pattern = new RegExp(source, flags);
  compiled.set(matcher, pattern);
  return pattern;
}
