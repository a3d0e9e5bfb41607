/**
 * The exact text the model receives after a shell tool runs. Models were trained on the
 * reference's layouts, so these strings are reproduced byte for byte: the JSON envelope of the
 * old `shell` tool, the plain-text block of `shell_command` (and freeform tools such as
 * apply_patch), and the header block of the unified-exec tools `exec_command` / `write_stdin`.
 */
import { formattedTruncateText, truncateText, countLines, type TruncationPolicy } from "./truncate.js";

/** What the formatters need from a finished command (a CommandResult fits). */
export interface ExecOutcome {
  exitCode: number;
  durationMs: number;
  aggregatedOutput: string;
  timedOut: boolean;
}

/**
 * Budget used when the caller passes none: 10,000 tokens, the catalog's default. (Older model
 * families in the reference budget 10,000 bytes instead; pass `{ kind: "bytes", … }` for those.)
 */
export const DEFAULT_TRUNCATION_POLICY: TruncationPolicy = { kind: "tokens", limit: 10_000 };

/** Output text with the timeout notice in front, as the reference builds it. */
export function buildContentWithTimeout(outcome: ExecOutcome): string {
  if (!outcome.timedOut) return outcome.aggregatedOutput;
  return `command timed out after ${Math.floor(outcome.durationMs)} milliseconds\n${outcome.aggregatedOutput}`;
}

/**
 * The reference rounds durations in 32-bit floats: `(secs as f32 * 10).round() / 10`. This
 * reproduces that arithmetic so the printed digits match.
 */
export function durationSecondsF32(durationMs: number): number {
  const secs = Math.fround(durationMs / 1000);
  const scaled = Math.fround(secs * 10);
  const rounded = Math.sign(scaled) * Math.round(Math.abs(scaled)); // half away from zero
  return Math.fround(rounded / 10);
}

/** Shortest decimal digits that read back as the same f32 (what Rust prints for an f32). */
function shortestF32Digits(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  for (let precision = 1; precision <= 9; precision++) {
    const candidate = Number(value.toPrecision(precision));
    if (Math.fround(candidate) === value) return String(candidate);
  }
  return String(value);
}

/** An f32 as Rust's `Display` prints it: `0`, `1.5`, `2`. */
export function formatF32Display(value: number): string {
  return shortestF32Digits(value);
}

/** An f32 as serde_json prints it: integral values keep a `.0` (`0.0`, `2.0`, `1.5`). */
export function formatF32Json(value: number): string {
  const digits = shortestF32Digits(value);
  return /^-?\d+$/.test(digits) ? `${digits}.0` : digits;
}

/**
 * The `shell` tool's output: `{"output":"…","metadata":{"exit_code":N,"duration_seconds":S}}`,
 * keys in that order, the text truncated with the reference's warning header when too long.
 */
export function formatShellJsonOutput(outcome: ExecOutcome, policy: TruncationPolicy = DEFAULT_TRUNCATION_POLICY): string {
  const output = formattedTruncateText(buildContentWithTimeout(outcome), policy);
  const seconds = formatF32Json(durationSecondsF32(outcome.durationMs));
  return `{"output":${JSON.stringify(output)},"metadata":{"exit_code":${outcome.exitCode},"duration_seconds":${seconds}}}`;
}

/**
 * The `shell_command` / freeform layout:
 *   Exit code: N
 *   Wall time: S seconds
 *   Total output lines: L      (only when truncation changed the line count)
 *   Output:
 *   <text>
 */
export function formatFreeformOutput(outcome: ExecOutcome, policy: TruncationPolicy = DEFAULT_TRUNCATION_POLICY): string {
  const content = buildContentWithTimeout(outcome);
  const totalLines = countLines(content);
  const output = truncateText(content, policy);
  const sections = [`Exit code: ${outcome.exitCode}`, `Wall time: ${formatF32Display(durationSecondsF32(outcome.durationMs))} seconds`];
  if (totalLines !== countLines(output)) sections.push(`Total output lines: ${totalLines}`);
  sections.push("Output:", output);
  return sections.join("\n");
}

/** One `exec_command` / `write_stdin` answer (see UnifiedExecManager). */
export interface UnifiedExecResponseFields {
  chunkId: string;
  wallTimeSeconds: number;
  exitCode: number | null;
  sessionId: number | null;
  originalTokenCount: number | null;
  output: string;
}

/**
 * The unified-exec layout; a line is left out when its value is absent:
 *   Chunk ID: 1a2b3c
 *   Wall time: 0.5123 seconds
 *   Process exited with code N          (finished)
 *   Process running with session ID ID  (still running)
 *   Original token count: T
 *   Output:
 *   <text>
 */
export function formatUnifiedExecResponse(response: UnifiedExecResponseFields): string {
  const sections: string[] = [];
  if (response.chunkId !== "") sections.push(`Chunk ID: ${response.chunkId}`);
  sections.push(`Wall time: ${response.wallTimeSeconds.toFixed(4)} seconds`);
  if (response.exitCode !== null) sections.push(`Process exited with code ${response.exitCode}`);
  if (response.sessionId !== null) sections.push(`Process running with session ID ${response.sessionId}`);
  if (response.originalTokenCount !== null) sections.push(`Original token count: ${response.originalTokenCount}`);
  sections.push("Output:", response.output);
  return sections.join("\n");
}
