import { test } from "node:test";
import assert from "node:assert/strict";
import { contentItems, errorResult, IMAGE_OMITTED_TEXT, toolOutputFromResult, withoutImages } from "./result.js";

void test("text-only content goes to the model as the JSON of the content array", () => {
  const out = toolOutputFromResult({ content: [{ type: "text", text: "hi" }] });
  assert.deepEqual(out, { text: '[{"type":"text","text":"hi"}]', success: true });
});

void test("structuredContent wins over content when present", () => {
  const out = toolOutputFromResult({ content: [{ type: "text", text: "sum is 3" }], structuredContent: { sum: 3 } });
  assert.deepEqual(out, { text: '{"sum":3}', success: true });
  const nullStructured = toolOutputFromResult({ content: [], structuredContent: null });
  assert.deepEqual(nullStructured, { text: "[]", success: true });
});

void test("isError makes the output unsuccessful; error results are one text block", () => {
  assert.deepEqual(toolOutputFromResult({ content: [{ type: "text", text: "bad" }], isError: true }), {
    text: '[{"type":"text","text":"bad"}]',
    success: false,
  });
  assert.deepEqual(errorResult("err: x"), { content: [{ type: "text", text: "err: x" }], isError: true });
});

void test("with an image, the output is content items: input_text, input_image data URLs, other blocks as JSON text", () => {
  const content = [
    { type: "text", text: "look" },
    { type: "image", data: "Zm9v", mimeType: "image/png" },
    { type: "image", data: "data:image/gif;base64,R0lG", mimeType: "image/gif", _meta: { "codex/imageDetail": "low" } },
    { type: "resource_link", uri: "x://y", name: "y" },
  ];
  const out = toolOutputFromResult({ content });
  assert.equal(out.success, true);
  assert.deepEqual(out.contentItems, [
    { type: "input_text", text: "look" },
    { type: "input_image", image_url: "data:image/png;base64,Zm9v", detail: "high" },
    { type: "input_image", image_url: "data:image/gif;base64,R0lG", detail: "low" },
    { type: "input_text", text: '{"type":"resource_link","uri":"x://y","name":"y"}' },
  ]);
  assert.equal(out.text, 'look\n{"type":"resource_link","uri":"x://y","name":"y"}');
});

void test("an image without a mime type becomes application/octet-stream; no image, no items", () => {
  assert.deepEqual(contentItems([{ type: "image", data: "QQ==" }]), [
    { type: "input_image", image_url: "data:application/octet-stream;base64,QQ==", detail: "high" },
  ]);
  assert.equal(contentItems([{ type: "text", text: "only text" }]), null);
});

void test("for models without image input, images become a note", () => {
  const out = withoutImages({ content: [{ type: "text", text: "a" }, { type: "image", data: "Zm9v", mimeType: "image/png" }], isError: false });
  assert.deepEqual(out, { content: [{ type: "text", text: "a" }, { type: "text", text: IMAGE_OMITTED_TEXT }], isError: false });
});
