/**
 * File-system errors worded as the reference prints them (`No such file or directory (os error
 * 2)`), so the model reads the same text whichever agent it runs under.
 */
import { constants } from "node:os";
import { errorMessage } from "../util/errors.js";
import { errorCode } from "../util/errors.js";

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory",
  EACCES: "Permission denied",
  EPERM: "Operation not permitted",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  EEXIST: "File exists",
  EROFS: "Read-only file system",
  ENOSPC: "No space left on device",
  ENAMETOOLONG: "File name too long",
  ELOOP: "Too many levels of symbolic links",
  EBUSY: "Device or resource busy",
  EXDEV: "Invalid cross-device link",
  EFBIG: "File too large",
  EDQUOT: "Disk quota exceeded",
  EIO: "Input/output error",
};

/** Wraps an error with the context that says which file and what step failed. */
export class PatchIoError extends Error {
  constructor(context: string, cause: unknown) {
    super(`${context}: ${describeIoError(cause)}`);
    this.name = "PatchIoError";
  }
}

export function describeIoError(err: unknown): string {
  const code = errorCode(err);
  const description = code ? DESCRIPTIONS[code] : undefined;
  if (code && description) {
    const errno = (constants.errno as Record<string, number | undefined>)[code];
    return errno === undefined ? description : `${description} (os error ${errno})`;
  }
  return errorMessage(err);
}
