/**
 * Bounded capture of one process's output: stdout, stderr and both interleaved in arrival
 * order, decoded as UTF-8 without splitting characters across chunks, each kept to its head and
 * tail so a command that prints gigabytes cannot exhaust memory.
 */
import { StringDecoder } from "node:string_decoder";
import { HeadTailText } from "./head-tail.js";

/** Default in-memory cap for each of stdout, stderr and the aggregate (about 1 MiB of text). */
export const MAX_CAPTURE_CHARS = 1024 * 1024;

export function elisionMarker(omitted: number): string {
  return `\n[... ${omitted} characters of output omitted ...]\n`;
}

export type OutputStream = "stdout" | "stderr";

export interface CapturedOutput {
  stdout: string;
  stderr: string;
  aggregatedOutput: string;
}

export class OutputCapture {
  private readonly streams: Record<OutputStream, HeadTailText>;
  private readonly aggregate: HeadTailText;
  private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };

  constructor(cap = MAX_CAPTURE_CHARS) {
    const half = Math.floor(cap / 2);
    this.streams = { stdout: new HeadTailText(half, cap - half), stderr: new HeadTailText(half, cap - half) };
    this.aggregate = new HeadTailText(half, cap - half);
  }

  write(stream: OutputStream, chunk: Buffer): void {
    this.record(stream, this.decoders[stream].write(chunk));
  }

  /** Flushes any incomplete character left in the decoders. */
  end(): void {
    for (const stream of ["stdout", "stderr"] as const) this.record(stream, this.decoders[stream].end());
  }

  result(): CapturedOutput {
    return {
      stdout: this.streams.stdout.toString(elisionMarker),
      stderr: this.streams.stderr.toString(elisionMarker),
      aggregatedOutput: this.aggregate.toString(elisionMarker),
    };
  }

  private record(stream: OutputStream, text: string): void {
    if (text.length === 0) return;
    this.streams[stream].push(text);
    this.aggregate.push(text);
  }
}
