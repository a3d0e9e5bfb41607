/**
 * Middle truncation of text bound for the model. The reference keeps the head and the tail of
 * long tool output and replaces the middle with a marker such as `…42 tokens truncated…` (token
 * budgets) or `…42 chars truncated…` (byte budgets). Token counts are a cheap estimate of four
 * UTF-8 bytes per token, never a real tokenizer, so the numbers the model sees match the
 * reference. Cuts always fall between whole code points: no UTF-8 sequence or surrogate pair is
 * ever split.
 */

/** The reference's token estimate: one token per four UTF-8 bytes, rounded up. */
export const APPROX_BYTES_PER_TOKEN = 4;

/** A model family's output budget: either a token count or a byte count. */
export type TruncationPolicy = { kind: "tokens"; limit: number } | { kind: "bytes"; limit: number };

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

export function approxTokensFromByteCount(bytes: number): number {
  return bytes <= 0 ? 0 : Math.ceil(bytes / APPROX_BYTES_PER_TOKEN);
}

/** Estimated token count of `text` (UTF-8 bytes / 4, rounded up). */
export function approxTokenCount(text: string): number {
  return approxTokensFromByteCount(utf8Length(text));
}

export function approxBytesForTokens(tokens: number): number {
  return Math.max(0, tokens) * APPROX_BYTES_PER_TOKEN;
}

/** How many bytes of text a policy allows. */
export function policyByteBudget(policy: TruncationPolicy): number {
  return policy.kind === "bytes" ? policy.limit : approxBytesForTokens(policy.limit);
}

/** How many tokens a policy allows. */
export function policyTokenBudget(policy: TruncationPolicy): number {
  return policy.kind === "tokens" ? policy.limit : approxTokensFromByteCount(policy.limit);
}

/** Line count as Rust's `str::lines().count()` gives it: a trailing newline adds no line. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let newlines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines++;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** UTF-8 width of one code point (a lone surrogate is encoded as U+FFFD: three bytes). */
function codePointBytes(cp: number): number {
  if (cp < 0x80) return 1;
  if (cp < 0x800) return 2;
  if (cp < 0x10000) return 3;
  return 4;
}

interface Split {
  head: string;
  tail: string;
  removedChars: number;
}

/**
 * Keeps the code points that end within the first `headBytes` bytes and those that start at or
 * after `totalBytes - tailBytes`; everything between is dropped and counted.
 */
function splitHeadTail(text: string, totalBytes: number, headBytes: number, tailBytes: number): Split {
  const tailStartTarget = Math.max(0, totalBytes - tailBytes);
  let byteOffset = 0;
  let headEnd = 0; // UTF-16 index
  let tailStart = -1; // UTF-16 index
  let removedChars = 0;
  let index = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const width = codePointBytes(cp);
    const charEnd = byteOffset + width;
    if (charEnd <= headBytes) {
      headEnd = index + ch.length;
    } else if (byteOffset >= tailStartTarget) {
      if (tailStart === -1) tailStart = index;
    } else {
      removedChars++;
    }
    byteOffset = charEnd;
    index += ch.length;
  }
  let tailIndex = tailStart === -1 ? text.length : tailStart;
  if (tailIndex < headEnd) tailIndex = headEnd;
  return { head: text.slice(0, headEnd), tail: text.slice(tailIndex), removedChars };
}

function marker(useTokens: boolean, count: number): string {
  return useTokens ? `…${count} tokens truncated…` : `…${count} chars truncated…`;
}

function truncateWithByteEstimate(text: string, maxBytes: number, useTokens: boolean): string {
  if (text.length === 0) return "";
  const totalBytes = utf8Length(text);
  if (maxBytes <= 0) {
    const removed = useTokens ? approxTokensFromByteCount(totalBytes) : [...text].length;
    return marker(useTokens, removed);
  }
  if (totalBytes <= maxBytes) return text;
  const headBudget = Math.floor(maxBytes / 2);
  const { head, tail, removedChars } = splitHeadTail(text, totalBytes, headBudget, maxBytes - headBudget);
  const removed = useTokens ? approxTokensFromByteCount(totalBytes - maxBytes) : removedChars;
  return `${head}${marker(useTokens, removed)}${tail}`;
}

/** Keeps at most `maxBytes` bytes of head + tail, with a `…N chars truncated…` marker between. */
export function truncateMiddleChars(text: string, maxBytes: number): string {
  return truncateWithByteEstimate(text, maxBytes, false);
}

export interface TokenTruncation {
  text: string;
  /** The estimated token count of the whole input, set only when something was cut. */
  originalTokenCount: number | null;
}

/** Keeps about `maxTokens` tokens of head + tail, with a `…N tokens truncated…` marker between. */
export function truncateMiddle(text: string, maxTokens: number): TokenTruncation {
  if (text.length === 0) return { text: "", originalTokenCount: null };
  if (maxTokens > 0 && utf8Length(text) <= approxBytesForTokens(maxTokens)) {
    return { text, originalTokenCount: null };
  }
  const out = truncateWithByteEstimate(text, approxBytesForTokens(maxTokens), true);
  return out === text ? { text, originalTokenCount: null } : { text: out, originalTokenCount: approxTokenCount(text) };
}

/** Truncates according to a policy, with no header. */
export function truncateText(text: string, policy: TruncationPolicy): string {
  return policy.kind === "bytes" ? truncateMiddleChars(text, policy.limit) : truncateMiddle(text, policy.limit).text;
}

/**
 * Truncates according to a policy and, when anything was cut, puts the reference's two-line
 * header in front: the original token estimate and the original line count.
 */
export function formattedTruncateText(text: string, policy: TruncationPolicy): string {
  if (utf8Length(text) <= policyByteBudget(policy)) return text;
  const header =
    `Warning: truncated output (original token count: ${approxTokenCount(text)})\n` +
    `Total output lines: ${countLines(text)}\n\n`;
  return header + truncateText(text, policy);
}
