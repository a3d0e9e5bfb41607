import { test } from "node:test";
import assert from "node:assert/strict";
import { userText } from "../protocol/items.js";
import { ConversationHistory } from "./history.js";

void test("appends are reported as they happen; replace swaps the whole list without reporting it", () => {
  const reported: string[] = [];
  const history = new ConversationHistory((items) => reported.push(...items.map((i) => JSON.stringify(i))));
  history.append(userText("a"), userText("b"));
  history.replace([userText("summary")]);
  history.append(userText("c"));
  assert.deepEqual(history.snapshot(), [userText("summary"), userText("c")]);
  assert.equal(reported.length, 3);
});
