/**
 * A file's text as the patch engine holds it: the UTF-8 bytes read from disk (whole, or as the
 * pieces the exact path assembled), the string a patch produced, or both. Each form is computed
 * from another once, and only when asked for, so a big file that the exact path rewrites byte
 * for byte is never decoded, re-encoded, or even copied into one buffer before it is written.
 */
export class FileContent {
  private constructor(
    private textForm: string | undefined,
    private bytesForm: Buffer | undefined,
    private readonly partsForm: readonly Buffer[] | undefined = undefined,
  ) {}

  static fromText(text: string): FileContent {
    return new FileContent(text, undefined);
  }

  /** Bytes already known to be valid UTF-8. */
  static fromBytes(bytes: Buffer): FileContent {
    return new FileContent(undefined, bytes);
  }

  /** Valid UTF-8 in pieces that together make the content. */
  static fromParts(parts: readonly Buffer[]): FileContent {
    return new FileContent(undefined, undefined, parts);
  }

  /** The bytes in pieces, to write with one vectored write. */
  get parts(): readonly Buffer[] {
    return this.partsForm ?? [this.bytes];
  }

  get byteLength(): number {
    return this.partsForm ? this.partsForm.reduce((sum, part) => sum + part.length, 0) : this.bytes.length;
  }

  get text(): string {
    this.textForm ??= this.bytes.toString("utf8");
    return this.textForm;
  }

  get bytes(): Buffer {
    this.bytesForm ??= this.partsForm ? Buffer.concat(this.partsForm) : Buffer.from(this.textForm as string, "utf8");
    return this.bytesForm;
  }
}
