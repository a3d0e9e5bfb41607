/**
 * The output of a command while it runs. `exec_command_output_delta` carries the raw bytes as
 * base64 (the protocol's form, as the reference sends it), so each chunk is decoded here, with one
 * UTF-8 decoder per stream: a character split between two chunks comes out whole. Only the tail
 * is ever shown while the command runs, so a bounded amount of it is kept; the whole output
 * arrives with the end event.
 */
import { StringDecoder } from "node:string_decoder";

/** How much of the running output is kept (the live cell shows its last lines). */
const KEPT_CHARS = 16_384;

export class CommandOutput {
  private readonly decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
  private kept = "";

  /** Adds one chunk as the event carries it (base64 of the bytes). */
  append(stream: "stdout" | "stderr", base64: string): void {
    this.kept = (this.kept + this.decoders[stream].write(Buffer.from(base64, "base64"))).slice(-KEPT_CHARS);
  }

  /** The text so far (a character still incomplete at a chunk's end is not in it yet). */
  get text(): string {
    return this.kept;
  }
}
