/**
 * Output written straight to a file descriptor, for the commands that print once and exit
 * (`--version`, `apply_patch`): setting up process.stdout or process.stderr costs a few
 * milliseconds, more than such a command's own work. A reader that went away (EPIPE) ends the
 * output quietly, as main.ts does for the streams; a descriptor that would block (EAGAIN: a
 * non-blocking pipe that is full) gets the rest through the stream, which waits for the reader.
 */
import { writeSync } from "node:fs";
import { errorCode } from "../util/errors.js";

export function writeToFd(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (err) {
      const code = errorCode(err);
      if (code === "EPIPE") return;
      if (code !== "EAGAIN") throw err;
      (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
      return;
    }
  }
}
