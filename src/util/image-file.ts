/**
 * Reading a local image for the model: `-i` files and the view_image tool. The format comes from
 * the file's first bytes (PNG, JPEG, GIF, WebP: what the Responses API takes), not its name, so a
 * misnamed file still works and a non-image is refused before it costs a request. Images are sent
 * as they are (no resizing), so their size is capped; see MAX_IMAGE_BYTES.
 */
import { stat } from "node:fs/promises";
import { NotRegularFileError, readBoundedBytes } from "./bounded-read.js";
import { errorCode, errorMessage } from "./errors.js";

/**
 * The largest image we attach: 20 MiB, the per-image limit of OpenAI's image inputs. History is
 * resent with every request, so a bigger file would cost far more than it could show.
 */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export type ImageFileProblem = "missing" | "not_a_file" | "too_large" | "not_an_image" | "unreadable";

/** Why an image could not be loaded; `message` names the absolute path. */
export class ImageFileError extends Error {
  constructor(
    readonly problem: ImageFileProblem,
    message: string,
  ) {
    super(message);
    this.name = "ImageFileError";
  }
}

export interface ImageFile {
  mime: string;
  /** `data:<mime>;base64,<bytes>`, as image inputs take it. */
  dataUrl: string;
  bytes: number;
}

/** The image type `head` (a file's first bytes) starts with, or null. */
export function sniffImageType(head: Uint8Array): string | null {
  const startsWith = (bytes: number[], at = 0): boolean => bytes.every((b, i) => head[at + i] === b);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith([0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

/** Loads the image at `path` (absolute), or throws an ImageFileError saying what is wrong. */
export async function loadImageFile(path: string): Promise<ImageFile> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new ImageFileError("not_a_file", `image path \`${path}\` is not a file`);
    size = info.size;
  } catch (err) {
    if (err instanceof ImageFileError) throw err;
    throw new ImageFileError("missing", `unable to locate image at \`${path}\`: ${reason(err)}`);
  }
  if (size > MAX_IMAGE_BYTES) {
    throw new ImageFileError(
      "too_large",
      `image at \`${path}\` is too large to attach (${mebibytes(size)}, over the ${mebibytes(MAX_IMAGE_BYTES)} limit)`,
    );
  }
  let data: Buffer;
  try {
    // Bounded and regular-only again at the read: the file may have been swapped since the stat.
    const read = readBoundedBytes(path, MAX_IMAGE_BYTES);
    if (read.truncated) throw new ImageFileError("too_large", `image at \`${path}\` grew past the ${mebibytes(MAX_IMAGE_BYTES)} limit while it was read`);
    data = read.data;
  } catch (err) {
    if (err instanceof ImageFileError) throw err;
    if (err instanceof NotRegularFileError) throw new ImageFileError("not_a_file", `image path \`${path}\` is not a file`);
    throw new ImageFileError("unreadable", `unable to read image at \`${path}\`: ${reason(err)}`);
  }
  const mime = sniffImageType(data.subarray(0, 16));
  if (mime === null) {
    throw new ImageFileError("not_an_image", `unable to process image at \`${path}\`: not a PNG, JPEG, GIF or WebP image`);
  }
  return { mime, dataUrl: `data:${mime};base64,${data.toString("base64")}`, bytes: data.length };
}

const REASONS: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ELOOP: "too many symbolic links",
  EISDIR: "is a directory",
};

function reason(err: unknown): string {
  const code = errorCode(err);
  return (code !== undefined ? REASONS[code] : undefined) ?? errorMessage(err);
}

function mebibytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}
