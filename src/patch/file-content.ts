/**
 * A file's text as the patch engine holds it: the UTF-8 bytes read from disk, the string a patch
 * produced, or both. Each form is computed from the other once, and only when asked for, so a
 * big file that the exact path rewrites byte for byte is never decoded or re-encoded.
 */
export class FileContent {
  private constructor(
    private textForm: string | undefined,
    private bytesForm: Buffer | undefined,
  ) {}

  static fromText(text: string): FileContent {
    return new FileContent(text, undefined);
  }

  /** Bytes already known to be valid UTF-8. */
  static fromBytes(bytes: Buffer): FileContent {
    return new FileContent(undefined, bytes);
  }

  get text(): string {
    this.textForm ??= (this.bytesForm as Buffer).toString("utf8");
    return this.textForm;
  }

  get bytes(): Buffer {
    this.bytesForm ??= Buffer.from(this.textForm as string, "utf8");
    return this.bytesForm;
  }
}
