/**
 * Which modules a CLI run loads, and which of them before its first frame. `loadOrderEnv(log,
 * mark)` gives the environment that makes the program (through NODE_OPTIONS=--import this file)
 * write every module's URL to `log` as it loads, and a line `MARK` when it first writes `mark`
 * to stdout; `readLoadOrder(log)` splits the list at that line.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { register } from "node:module";
import { fileURLToPath } from "node:url";

const MARK_LINE = "MARK";

// In the program: hooks on, and stdout watched for the mark.
const log = process.env.LOAD_ORDER_LOG;
const mark = process.env.LOAD_ORDER_MARK;
if (log) {
  register(new URL("./load-order-hooks.js", import.meta.url));
  if (mark) {
    const write = process.stdout.write.bind(process.stdout) as (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;
    let seen = false;
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      if (!seen && String(chunk).includes(mark)) {
        seen = true;
        appendFileSync(log, `${MARK_LINE}\n`);
      }
      return write(chunk, ...rest);
    }) as typeof process.stdout.write;
  }
}

/** The environment for a program whose module loads go to `logFile`. */
export function loadOrderEnv(logFile: string, stdoutMark?: string): Record<string, string> {
  const env: Record<string, string> = { NODE_OPTIONS: `--import=${fileURLToPath(import.meta.url)}`, LOAD_ORDER_LOG: logFile };
  if (stdoutMark) env.LOAD_ORDER_MARK = stdoutMark;
  return env;
}

/** The modules loaded before the mark was written and after it (all in `before` without a mark). */
export function readLoadOrder(logFile: string): { before: string[]; after: string[]; marked: boolean } {
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  const at = lines.indexOf(MARK_LINE);
  if (at < 0) return { before: lines, after: [], marked: false };
  return { before: lines.slice(0, at), after: lines.slice(at + 1), marked: true };
}
