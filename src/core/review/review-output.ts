/**
 * Reading the reviewer's answer, and telling the parent thread what it found. The answer is
 * taken as JSON, else the text from its first `{` to its last `}` (a fenced or prefaced
 * answer), else as plain text: the explanation of an otherwise empty review. The parent thread
 * hears about the review in one `<user_action>` message, in the reference's structure.
 */
import { findingLocation, type ReviewFinding, type ReviewOutputEvent } from "../../protocol/review.js";

export function parseReviewOutput(text: string): ReviewOutputEvent {
  const whole = tryParse(text);
  if (whole) return whole;
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  const inner = first !== -1 && last > first ? tryParse(text.slice(first, last + 1)) : null;
  return inner ?? { findings: [], overall_correctness: "", overall_explanation: text, overall_confidence_score: 0 };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function tryParse(text: string): ReviewOutputEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  const findings = Array.isArray(value.findings) ? value.findings.filter(isObject).map(finding) : [];
  return {
    findings,
    overall_correctness: str(value.overall_correctness),
    overall_explanation: str(value.overall_explanation),
    overall_confidence_score: num(value.overall_confidence_score),
  };
}

function finding(raw: Json): ReviewFinding {
  const location = isObject(raw.code_location) ? raw.code_location : {};
  const range = isObject(location.line_range) ? location.line_range : {};
  return {
    title: str(raw.title),
    body: str(raw.body),
    confidence_score: num(raw.confidence_score),
    priority: Math.trunc(num(raw.priority)),
    code_location: { absolute_file_path: str(location.absolute_file_path), line_range: { start: num(range.start), end: num(range.end) } },
  };
}

/** The findings as a block the model (and a person) can read: title, location, body. */
export function formatFindings(findings: readonly ReviewFinding[]): string {
  if (findings.length === 0) return "";
  const header = findings.length === 1 ? "Review comment:" : "Full review comments:";
  const items = findings.map((f) => `- ${f.title} — ${findingLocation(f)}\n${indent(f.body)}`);
  return `${header}\n\n${items.join("\n\n")}`;
}

function indent(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

/** What the parent thread is told when a review ends (null: it was interrupted). */
export function reviewResultMessage(output: ReviewOutputEvent | null): string {
  const context = output
    ? "The user ran a code review; the reviewer's complete result follows. The user may ask you to act on some of its findings."
    : "The user started a code review but it was interrupted before it finished. If they ask about it, suggest running the review again and letting it complete.";
  const findings = output ? formatFindings(output.findings) : "";
  const results = output ? [output.overall_explanation.trim(), findings].filter(Boolean).join("\n") : "None.";
  return `<user_action>\n  <context>${context}</context>\n  <action>review</action>\n  <results>\n  ${results}\n  </results>\n</user_action>`;
}
