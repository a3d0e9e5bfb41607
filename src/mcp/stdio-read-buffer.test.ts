import { test } from "node:test";
import assert from "node:assert/strict";
import { SkippingReadBuffer } from "./stdio-read-buffer.js";

function feed(buffer: SkippingReadBuffer, text: string, chunk = 7): void {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) buffer.append(bytes.subarray(i, i + chunk));
}

function drain(buffer: SkippingReadBuffer): unknown[] {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  return out;
}

void test("messages within the limit come out whole, whatever the chunking; CRLF is accepted", () => {
  const b = new SkippingReadBuffer(100);
  feed(b, '{"jsonrpc":"2.0","id":1,"result":{"a":"é"}}\r\n{"jsonrpc":"2.0","method":"notifications/x"}\n{"jsonrpc":"2.0"');
  assert.deepEqual(drain(b), [
    { jsonrpc: "2.0", id: 1, result: { a: "é" } },
    { jsonrpc: "2.0", method: "notifications/x" },
  ]);
  feed(b, ',"id":2,"result":{}}\n');
  assert.deepEqual(drain(b), [{ jsonrpc: "2.0", id: 2, result: {} }]);
});

void test("an oversized reply becomes an error reply to its request, id first (Python, Rust) or last (TypeScript); the next message still arrives", () => {
  const b = new SkippingReadBuffer(1000);
  const big = "x".repeat(5000);
  feed(b, `{"jsonrpc":"2.0","id":"req-7","result":{"content":[{"type":"text","text":"${big}"}]}}\n`, 300);
  feed(b, `{"result":{"content":[{"type":"text","text":"${big} \\"id\\":9}"}]},"jsonrpc":"2.0","id":12}\n{"jsonrpc":"2.0","id":13,"result":{}}\n`, 300);
  const [first, second, third] = drain(b) as Array<{ id: unknown; error?: { message: string } }>;
  assert.equal(first?.id, "req-7");
  assert.match(first?.error?.message ?? "", /^result too large: a message of 5\.0 KiB from the server, over the 1000 bytes/);
  assert.equal(second?.id, 12);
  assert.deepEqual(third, { jsonrpc: "2.0", id: 13, result: {} });
});

void test("an oversized request or notification from the server is dropped and reported, never answered as if it were a reply", () => {
  const dropped: string[] = [];
  const b = new SkippingReadBuffer(100, (m) => dropped.push(m));
  feed(b, `{"method":"notifications/message","params":{"data":"${"y".repeat(500)}"},"jsonrpc":"2.0","id":3}\n{"jsonrpc":"2.0","id":4,"result":{}}\n`);
  assert.deepEqual(drain(b), [{ jsonrpc: "2.0", id: 4, result: {} }]);
  assert.equal(dropped.length, 1);
  assert.match(dropped[0] ?? "", /^skipped a message of 5\d\d bytes/);
});
