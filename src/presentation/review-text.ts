/**
 * A review's result as a person reads it in a terminal: the verdict, then each finding with its
 * priority, `file:line` and the lines of code it points at, then the reviewer's explanation.
 */
import { readTextPrefix } from "../util/bounded-read.js";
import { findingLocation, type ReviewFinding, type ReviewOutputEvent } from "../protocol/review.js";

/** At most this many lines of code are shown per finding. */
const MAX_CODE_LINES = 8;

/** A finding past this much of its file shows no code (the path comes from the model). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

const readFilePrefix = (path: string): string => readTextPrefix(path, MAX_FILE_BYTES).text;

export function reviewText(output: ReviewOutputEvent, readFile: (path: string) => string = readFilePrefix): string {
  const parts: string[] = [];
  const verdict = output.overall_correctness ? `Verdict: ${output.overall_correctness}` : "";
  if (verdict) parts.push(verdict);
  if (output.overall_explanation.trim()) parts.push(output.overall_explanation.trim());
  if (output.findings.length === 0) parts.push("No findings.");
  for (const finding of output.findings) parts.push(findingText(finding, readFile));
  return parts.join("\n\n");
}

function findingText(f: ReviewFinding, readFile: (path: string) => string): string {
  const lines = [`[P${f.priority}] ${f.title}`, `  ${findingLocation(f)}`];
  const code = findingCode(f, readFile);
  if (code.length > 0) lines.push(...code);
  if (f.body.trim()) lines.push(...f.body.trim().split("\n").map((l) => `  ${l}`));
  return lines.join("\n");
}

/** The finding's lines, numbered; nothing when the file cannot be read. */
export function findingCode(f: ReviewFinding, readFile: (path: string) => string = readFilePrefix): string[] {
  const { start, end } = f.code_location.line_range;
  if (start < 1) return [];
  let text: string;
  try {
    text = readFile(f.code_location.absolute_file_path);
  } catch {
    return [];
  }
  const fileLines = text.split("\n");
  const last = Math.min(Math.max(end, start), start + MAX_CODE_LINES - 1, fileLines.length);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = start; n <= last; n++) out.push(`  ${String(n).padStart(width)} | ${fileLines[n - 1] ?? ""}`);
  if (end > last) out.push(`  ${" ".repeat(width)} | …`);
  return out;
}
