/** For config tests: the message of the ConfigError `load` throws; fails the test when it throws none or another error. */
import assert from "node:assert/strict";
import { ConfigError } from "../../src/config/overrides.js";

export function configErrorOf(load: () => unknown): string {
  try {
    load();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.message;
  }
  assert.fail("expected a ConfigError");
}
