/**
 * Parses patch text in the apply_patch language into hunks. Models are trained on this format,
 * so the rules follow the reference exactly, including what it tolerates: whitespace around the
 * markers, a missing final newline, CRLF line breaks, a `<<'EOF'` heredoc wrapper left in the
 * text, blank lines between chunks, and a first chunk without its `@@` line.
 *
 *   *** Begin Patch
 *   *** Add File: path        then lines starting with "+"
 *   *** Delete File: path
 *   *** Update File: path     then optionally "*** Move to: path", then chunks:
 *   @@ [context line]         then lines starting with " ", "-" or "+", optionally "*** End of File"
 *   *** End Patch
 */
import type { Hunk, ParsedPatch, UpdateChunk } from "./types.js";

const BEGIN_PATCH = "*** Begin Patch";
const END_PATCH = "*** End Patch";
const ADD_FILE = "*** Add File: ";
const DELETE_FILE = "*** Delete File: ";
const UPDATE_FILE = "*** Update File: ";
const MOVE_TO = "*** Move to: ";
const END_OF_FILE = "*** End of File";
const CONTEXT_MARKER = "@@ ";
const EMPTY_CONTEXT_MARKER = "@@";
const NO_LINES = "Update hunk does not contain any lines";

/**
 * Why a patch could not be parsed. `message` is the reference's wording (the model reads it
 * after "apply_patch verification failed: "); `cliMessage` is what the standalone command prints.
 */
export class PatchParseError extends Error {
  constructor(
    readonly detail: string,
    /** 1-based line of the patch where the problem is; null for problems with the markers. */
    readonly lineNumber: number | null,
  ) {
    super(lineNumber === null ? `invalid patch: ${detail}` : `invalid hunk at line ${lineNumber}, ${detail}`);
    this.name = "PatchParseError";
  }

  get cliMessage(): string {
    return this.lineNumber === null
      ? `Invalid patch: ${this.detail}`
      : `Invalid patch hunk on line ${this.lineNumber}: ${this.detail}`;
  }
}

export function parsePatch(text: string): ParsedPatch {
  const lines = splitLines(text.trim());
  const body = patchBody(lines);
  const hunks: Hunk[] = [];
  // Line numbers are 1-based and count the Begin marker, so the first hunk starts on line 2.
  let lineNumber = 2;
  let index = body.start;
  while (index < body.end) {
    const { hunk, consumed } = parseHunk(lines, index, body.end, lineNumber);
    hunks.push(hunk);
    index += consumed;
    lineNumber += consumed;
  }
  return { hunks, patch: lines.slice(body.start - 1, body.end + 1).join("\n") };
}

/** True when the text parses as a patch: used to catch a patch sent without `apply_patch`. */
export function isPatchText(text: string): boolean {
  try {
    parsePatch(text);
    return true;
  } catch {
    return false;
  }
}

/** Splits like Rust's `str::lines`: on "\n", dropping one "\r" before it, no empty last line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/**
 * Finds the lines between the Begin and End markers. When the markers are not the first and
 * last lines, the text may still be a heredoc a model pasted whole (`<<'EOF'` … `EOF`): that
 * wrapper is peeled off once before giving up with the original complaint.
 */
function patchBody(lines: string[]): { start: number; end: number } {
  const strict = checkMarkers(lines, 0, lines.length);
  if (strict === null) return { start: 1, end: lines.length - 1 };
  const first = lines[0];
  const last = lines[lines.length - 1];
  const isHeredocOpen = first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"';
  if (lines.length >= 4 && isHeredocOpen && last !== undefined && last.endsWith("EOF")) {
    const inner = checkMarkers(lines, 1, lines.length - 1);
    if (inner !== null) throw inner;
    return { start: 2, end: lines.length - 2 };
  }
  throw strict;
}

/** Checks lines[from] is the Begin marker and lines[to - 1] the End marker (whitespace ignored). */
function checkMarkers(lines: string[], from: number, to: number): PatchParseError | null {
  const first = lines[from]?.trim();
  const last = to - 1 >= from ? lines[to - 1]?.trim() : undefined;
  if (first === BEGIN_PATCH && last === END_PATCH && to - from >= 2) return null;
  // An empty patch has no first line to blame, so (like the reference) it fails on the last.
  if (first !== undefined && first !== BEGIN_PATCH) return new PatchParseError("The first line of the patch must be '*** Begin Patch'", null);
  return new PatchParseError("The last line of the patch must be '*** End Patch'", null);
}

function parseHunk(lines: string[], start: number, end: number, lineNumber: number): { hunk: Hunk; consumed: number } {
  // Markers may carry stray whitespace around them; the path after the marker is kept as is.
  const header = (lines[start] ?? "").trim();
  if (header.startsWith(ADD_FILE)) {
    let contents = "";
    let index = start + 1;
    while (index < end && (lines[index] ?? "").startsWith("+")) {
      contents += `${(lines[index] ?? "").slice(1)}\n`;
      index++;
    }
    return { hunk: { kind: "add", path: header.slice(ADD_FILE.length), contents }, consumed: index - start };
  }
  if (header.startsWith(DELETE_FILE)) {
    return { hunk: { kind: "delete", path: header.slice(DELETE_FILE.length) }, consumed: 1 };
  }
  if (header.startsWith(UPDATE_FILE)) return parseUpdateHunk(lines, start, end, lineNumber, header.slice(UPDATE_FILE.length));
  throw new PatchParseError(
    `'${header}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'`,
    lineNumber,
  );
}

function parseUpdateHunk(
  lines: string[],
  start: number,
  end: number,
  lineNumber: number,
  path: string,
): { hunk: Hunk; consumed: number } {
  let index = start + 1;
  let movePath: string | null = null;
  const moveLine = lines[index];
  if (index < end && moveLine !== undefined && moveLine.startsWith(MOVE_TO)) {
    movePath = moveLine.slice(MOVE_TO.length);
    index++;
  }
  const chunks: UpdateChunk[] = [];
  while (index < end) {
    const line = lines[index] ?? "";
    // Blank lines between chunks are tolerated; a line starting with "*" begins the next hunk.
    if (line.trim() === "") {
      index++;
      continue;
    }
    if (line.startsWith("*")) break;
    const { chunk, consumed } = parseChunk(lines, index, end, lineNumber + (index - start), chunks.length === 0);
    chunks.push(chunk);
    index += consumed;
  }
  if (chunks.length === 0) throw new PatchParseError(`Update file hunk for path '${path}' is empty`, lineNumber);
  return { hunk: { kind: "update", path, movePath, chunks }, consumed: index - start };
}

function parseChunk(
  lines: string[],
  start: number,
  end: number,
  lineNumber: number,
  allowMissingContext: boolean,
): { chunk: UpdateChunk; consumed: number } {
  const first = lines[start] ?? "";
  let changeContext: string | null = null;
  let bodyStart = start;
  if (first === EMPTY_CONTEXT_MARKER) {
    bodyStart++;
  } else if (first.startsWith(CONTEXT_MARKER)) {
    changeContext = first.slice(CONTEXT_MARKER.length);
    bodyStart++;
  } else if (!allowMissingContext) {
    throw new PatchParseError(`Expected update hunk to start with a @@ context marker, got: '${first}'`, lineNumber);
  }
  if (bodyStart >= end) throw new PatchParseError(NO_LINES, lineNumber + 1);

  const chunk: UpdateChunk = { changeContext, oldLines: [], newLines: [], isEndOfFile: false };
  let parsed = 0;
  for (let index = bodyStart; index < end; index++) {
    const line = lines[index] ?? "";
    if (line === END_OF_FILE) {
      if (parsed === 0) throw new PatchParseError(NO_LINES, lineNumber + 1);
      chunk.isEndOfFile = true;
      parsed++;
      break;
    }
    const marker = line[0];
    if (marker === undefined) {
      // A line left completely empty stands for an empty context line.
      chunk.oldLines.push("");
      chunk.newLines.push("");
    } else if (marker === " ") {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === "+") {
      chunk.newLines.push(line.slice(1));
    } else if (marker === "-") {
      chunk.oldLines.push(line.slice(1));
    } else {
      if (parsed === 0) {
        throw new PatchParseError(
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)`,
          lineNumber + 1,
        );
      }
      break; // the start of the next chunk or hunk
    }
    parsed++;
  }
  return { chunk, consumed: parsed + (bodyStart - start) };
}
