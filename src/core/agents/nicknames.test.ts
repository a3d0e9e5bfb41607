import { test } from "node:test";
import assert from "node:assert/strict";
import { NicknamePool } from "./nicknames.js";

void test("nicknames are unique within a tree, a role's candidates come first, and names come round again numbered", () => {
  const pool = new NicknamePool();
  const common = new Set(Array.from({ length: 10 }, () => pool.take()));
  assert.equal(common.size, 10);
  assert.equal(pool.take(["Ada", "Grace"]), "Ada");
  assert.equal(pool.take(["Ada", "Grace"]), "Grace");
  assert.equal(pool.take(["Ada", "Grace"]), "Ada 2");
  pool.claim("Zed");
  assert.equal(pool.take(["Zed"]), "Zed 2");
});
