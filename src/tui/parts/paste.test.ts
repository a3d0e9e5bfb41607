import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { classifyPaste, imagePathOf, LARGE_PASTE_CHARS, normalizePaste, PasteStore } from "./paste.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e6d50000000049454e44ae426082", "hex");

void test("small pastes go in as they are; large ones become numbered placeholders and expand on submit", () => {
  const store = new PasteStore();
  assert.equal(store.insert("hello\nworld"), "hello\nworld");
  const big = "x".repeat(LARGE_PASTE_CHARS + 200);
  const first = store.insert(big);
  assert.equal(first, "[Pasted Content 1200 chars]");
  const second = store.insert("y".repeat(1200));
  assert.equal(second, "[Pasted Content 1200 chars #2]");
  const many = Array.from({ length: 25 }, (_, i) => `line ${i}`).join("\n");
  assert.equal(store.insert(many), `[Pasted Content ${many.length} chars]`);
  const composer = `look: ${first} and ${second}!`;
  assert.equal(store.expand(composer), `look: ${big} and ${"y".repeat(1200)}!`);
  // A placeholder the user deleted brings nothing back.
  assert.equal(store.expand("only text"), "only text");
  assert.equal(store.size, 3);
  store.clear();
  assert.equal(store.expand(first), first);
});

void test("counts characters, not UTF-16 units", () => {
  const store = new PasteStore();
  assert.equal(store.insert("😀".repeat(LARGE_PASTE_CHARS)), "😀".repeat(LARGE_PASTE_CHARS));
});

void test("line endings are normalised", () => {
  assert.equal(normalizePaste("a\r\nb\rc\n"), "a\nb\nc\n");
});

void test("image paths: plain, quoted, escaped spaces, ~ and file:// URLs; other files are not images", async () => {
  const dir = mkdtempSync(join(tmpdir(), "paste-"));
  try {
    mkdirSync(join(dir, "sub dir"));
    const png = join(dir, "sub dir", "my shot.PNG");
    writeFileSync(png, PNG);
    writeFileSync(join(dir, "notes.txt"), "hi");
    writeFileSync(join(dir, "fake.png"), "not an image");
    assert.equal(imagePathOf(png, "/"), png);
    assert.equal(imagePathOf(`"${png}"`, "/"), png);
    assert.equal(imagePathOf(`'${png}'  `, "/"), png);
    assert.equal(imagePathOf(png.replace(/ /g, "\\ "), "/"), png);
    assert.equal(imagePathOf(pathToFileURL(png).href, "/"), png);
    assert.equal(imagePathOf("sub dir/my shot.PNG", dir), png);
    assert.equal(imagePathOf(join(dir, "notes.txt"), "/"), null);
    assert.equal(imagePathOf(join(dir, "missing.png"), "/"), null);
    assert.equal(imagePathOf(`${png}\n${png}`, "/"), null);
    assert.equal(imagePathOf(join(dir, "sub dir"), "/"), null);

    const store = new PasteStore();
    assert.deepEqual(await classifyPaste(`"${png}"`, "/", store), { kind: "image", path: png, mime: "image/png", bytes: PNG.length });
    // Named like an image but not one: pasted as text.
    assert.deepEqual(await classifyPaste(join(dir, "fake.png"), "/", store), { kind: "text", insert: join(dir, "fake.png") });
    assert.deepEqual(await classifyPaste("a\r\nb", "/", store), { kind: "text", insert: "a\nb" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
