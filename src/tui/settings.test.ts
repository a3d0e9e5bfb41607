import { test } from "node:test";
import assert from "node:assert/strict";
import { tuiSettings } from "./settings.js";

void test("[tui] alternate_screen and notifications, the flag beating the file", () => {
  assert.equal(tuiSettings({}, {}).alternateScreen, false);
  assert.equal(tuiSettings({ tui: { alternate_screen: true } }, {}).alternateScreen, true);
  assert.equal(tuiSettings({ tui: { alternate_screen: true } }, { altScreen: false }).alternateScreen, false);
  assert.equal(tuiSettings({}, { altScreen: true }).alternateScreen, true);
  assert.deepEqual([...tuiSettings({ tui: { notifications: ["approval-requested"] } }, {}).notifications], ["approval-requested"]);
  assert.equal(tuiSettings({ tui: { notifications: false } }, {}).notifications.size, 0);
  assert.match(tuiSettings({ tui: { alternate_screen: "yes" } }, {}).warnings[0] ?? "", /alternate_screen/);
});

void test("tui.notification_method: auto by default, osc9 or bel when set, a warning for anything else", () => {
  assert.equal(tuiSettings({}, {}).notificationMethod, "auto");
  assert.equal(tuiSettings({ tui: { notification_method: "bel" } }, {}).notificationMethod, "bel");
  assert.equal(tuiSettings({ tui: { notification_method: "osc9" } }, {}).notificationMethod, "osc9");
  const bad = tuiSettings({ tui: { notification_method: "beep" } }, {});
  assert.equal(bad.notificationMethod, "auto");
  assert.match(bad.warnings[0] ?? "", /notification_method/);
});
