import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ImageFileError, MAX_IMAGE_BYTES, loadImageFile, sniffImageType } from "./image-file.js";

const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

void test("image types are recognised by their first bytes", () => {
  assert.equal(sniffImageType(PNG_HEAD), "image/png");
  assert.equal(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), "image/jpeg");
  assert.equal(sniffImageType(Buffer.from("GIF89a")), "image/gif");
  assert.equal(sniffImageType(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1")), "image/webp");
  assert.equal(sniffImageType(Buffer.from("RIFF\x00\x00\x00\x00WAVEfmt ", "latin1")), null);
  assert.equal(sniffImageType(Buffer.from("hello")), null);
  assert.equal(sniffImageType(Buffer.alloc(0)), null);
});

void test("an image file becomes a data URL whatever its name", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-image-"));
  const path = join(dir, "shot.dat");
  writeFileSync(path, PNG_HEAD);
  const image = await loadImageFile(path);
  assert.equal(image.mime, "image/png");
  assert.equal(image.dataUrl, `data:image/png;base64,${PNG_HEAD.toString("base64")}`);
  assert.equal(image.bytes, PNG_HEAD.length);
});

void test("missing files, folders, non-images and oversized images are refused with the reason", async () => {
  const dir = mkdtempSync(join(tmpdir(), "codex-ts-image-"));
  const refusal = async (path: string): Promise<ImageFileError> => {
    try {
      await loadImageFile(path);
    } catch (err) {
      assert.ok(err instanceof ImageFileError);
      return err;
    }
    assert.fail(`${path} was accepted`);
  };
  const missing = await refusal(join(dir, "nope.png"));
  assert.equal(missing.problem, "missing");
  assert.equal(missing.message, `unable to locate image at \`${join(dir, "nope.png")}\`: no such file or directory`);
  const folder = await refusal(dir);
  assert.equal(folder.message, `image path \`${dir}\` is not a file`);
  writeFileSync(join(dir, "notes.png"), "just text");
  const text = await refusal(join(dir, "notes.png"));
  assert.equal(text.problem, "not_an_image");
  assert.match(text.message, /^unable to process image at `.*notes\.png`: not a PNG, JPEG, GIF or WebP image$/);
  const big = join(dir, "big.png");
  writeFileSync(big, PNG_HEAD);
  truncateSync(big, MAX_IMAGE_BYTES + 1); // sparse: no 20 MiB written to disk
  const large = await refusal(big);
  assert.equal(large.problem, "too_large");
  assert.equal(large.message, `image at \`${big}\` is too large to attach (20.0 MiB, over the 20 MiB limit)`);
});
