/** The lines a short notice or a live preview shows of a longer text. */

/** The first line that is not blank, trimmed ("" when there is none). */
export function firstLine(text: string | null): string {
  return (text ?? "").split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}

/** The last line of the text, once trailing blank space is trimmed. */
export function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "";
}
