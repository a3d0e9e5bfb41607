/**
 * A finished `/review`: the verdict and the reviewer's explanation, then each finding: its
 * priority and title, where it is, the lines of code it points at, and its body, which the
 * reviewer writes in Markdown and is drawn as such.
 */
import type { ReviewOutputEvent } from "../protocol/review.js";
import { findingLocation } from "../protocol/review.js";
import { findingCode } from "../presentation/review-text.js";
import { prefixed, printable, type CellStyle } from "./cells.js";
import { markdownLines, trimPadding } from "./markdown-lines.js";

export function reviewCell(output: ReviewOutputEvent, s: CellStyle, width: number): string[] {
  const t = s.theme;
  const markdown = (text: string): string[] => markdownLines(printable(text.trim()), s.markdown, Math.max(10, width - 4)).map((l) => `    ${l}`);
  const lines = [`${t.fg("accent", "• ")}${t.bold("Review")}${output.overall_correctness ? t.dim(`  ${output.overall_correctness}`) : ""}`];
  if (output.overall_explanation.trim()) lines.push(...markdown(output.overall_explanation).map((l) => l.slice(2)));
  if (output.findings.length === 0) lines.push("  No findings.");
  for (const f of output.findings) {
    lines.push("", ...prefixed(`  ${t.fg(f.priority <= 1 ? "error" : "warning", `[P${f.priority}]`)} `, "       ", t.bold(printable(f.title)), width));
    lines.push(t.dim(`    ${findingLocation(f)}`));
    lines.push(...findingCode(f).map((l) => t.dim(`  ${printable(l)}`)));
    if (f.body.trim()) lines.push(...markdown(f.body));
  }
  lines.push("");
  return lines.map(trimPadding);
}
