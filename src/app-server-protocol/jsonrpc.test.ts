import { test } from "node:test";
import assert from "node:assert/strict";
import { parseMessage } from "./jsonrpc.js";

void test("messages are sorted into requests, notifications, responses, and what is none of them", () => {
  assert.deepEqual(parseMessage('{"id":1,"method":"a","params":{"x":1}}'), { kind: "request", message: { id: 1, method: "a", params: { x: 1 } } });
  assert.deepEqual(parseMessage('{"method":"initialized"}'), { kind: "notification", message: { method: "initialized", params: undefined } });
  assert.deepEqual(parseMessage('{"id":"s","result":{}}'), { kind: "response", message: { id: "s", result: {} } });
  assert.deepEqual(parseMessage('{"id":2,"error":{"code":-1,"message":"no"}}'), { kind: "response", message: { id: 2, error: { code: -1, message: "no" } } });
  const notJson = parseMessage("nope");
  assert.equal(notJson.kind, "invalid");
  assert.equal(notJson.kind === "invalid" && notJson.error.code, -32700);
  for (const text of ["[1,2]", '{"id":1.5,"method":"a"}', '{"id":3}', '{"id":4,"method":""}']) {
    const m = parseMessage(text);
    assert.equal(m.kind, "invalid", text);
  }
  const named = parseMessage('{"id":7,"method":3}');
  assert.equal(named.kind === "invalid" && named.id, 7, "an error for a message with an id names it");
});
