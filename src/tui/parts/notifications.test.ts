import { test } from "node:test";
import assert from "node:assert/strict";
import {
  FOCUS_TRACKING_OFF,
  FOCUS_TRACKING_ON,
  FocusNotifier,
  notificationEvents,
  notificationMethod,
  osc9,
  resolveMethod,
  stripFocusReports,
} from "./notifications.js";

void test("tui.notifications: true (default), false, or a list of event names", () => {
  assert.deepEqual([...notificationEvents(undefined).events], ["agent-turn-complete", "approval-requested"]);
  assert.deepEqual([...notificationEvents(true).events], ["agent-turn-complete", "approval-requested"]);
  assert.equal(notificationEvents(false).events.size, 0);
  assert.deepEqual([...notificationEvents(["approval-requested"]).events], ["approval-requested"]);
  const odd = notificationEvents(["approval-requested", "turn-done"]);
  assert.deepEqual([...odd.events], ["approval-requested"]);
  assert.match(odd.warning ?? "", /unknown event "turn-done" ignored/);
  const bad = notificationEvents("yes");
  assert.equal(bad.events.size, 2);
  assert.match(bad.warning ?? "", /must be true, false or a list/);
});

void test("focus reports are taken out of the input, anywhere in a chunk", () => {
  assert.deepEqual(stripFocusReports("abc"), { data: "abc", focused: null });
  assert.deepEqual(stripFocusReports("\u001b[O"), { data: "", focused: false });
  assert.deepEqual(stripFocusReports("a\u001b[Ib\u001b[Oc"), { data: "abc", focused: false });
  assert.deepEqual(stripFocusReports("\u001b[O\u001b[A\u001b[I"), { data: "\u001b[A", focused: true });
});

void test("osc9: one line, capped, passed through tmux", () => {
  assert.equal(osc9("done\nnow\u0007", {}), "\u001b]9;done now\u0007");
  assert.equal(osc9("x".repeat(500), {}).length, "\u001b]9;\u0007".length + 180);
  assert.equal(osc9("hi", { TMUX: "/tmp/tmux-0/default,1,0" }), "\u001bPtmux;\u001b\u001b]9;hi\u0007\u001b\\");
});

void test("notifies only while unfocused and only for enabled events", () => {
  const written: string[] = [];
  const notifier = new FocusNotifier(notificationEvents(["agent-turn-complete"]).events, {});
  assert.equal(notifier.turnComplete("x"), false); // not started
  notifier.start((d) => written.push(d));
  assert.deepEqual(written, [FOCUS_TRACKING_ON]);
  assert.equal(notifier.turnComplete("All done.\nDetails follow."), false); // focused
  assert.equal(notifier.handleInput("\u001b[O"), true);
  assert.equal(notifier.hasFocus, false);
  assert.equal(notifier.turnComplete("\n  All done.\nDetails follow."), true);
  assert.equal(notifier.approvalRequested("run `rm -rf build`"), false); // not enabled
  assert.equal(notifier.turnComplete(null), true);
  assert.equal(notifier.filterInput("q\u001b[I"), "q");
  assert.equal(notifier.turnComplete("again"), false);
  notifier.stop();
  assert.deepEqual(written, [FOCUS_TRACKING_ON, "\u001b]9;Turn complete: All done.\u0007", "\u001b]9;Turn complete\u0007", FOCUS_TRACKING_OFF]);
  assert.equal(notifier.handleInput("x"), false);
});

void test("as a pi-tui input listener: reports are consumed, keys pass, mixed chunks are cut", () => {
  const notifier = new FocusNotifier(notificationEvents(true).events, {});
  assert.deepEqual(notifier.inputListener("\u001b[O"), { consume: true });
  assert.equal(notifier.hasFocus, false);
  assert.equal(notifier.inputListener("a"), undefined);
  assert.deepEqual(notifier.inputListener("\u001b[Ib"), { data: "b" });
  assert.equal(notifier.hasFocus, true);
});

void test("with notifications off, focus tracking is never turned on", () => {
  const written: string[] = [];
  const notifier = new FocusNotifier(notificationEvents(false).events, {});
  notifier.start((d) => written.push(d));
  notifier.filterInput("\u001b[O");
  assert.equal(notifier.approvalRequested("x"), false);
  notifier.stop();
  assert.deepEqual(written, []);
});

void test("tui.notification_method: auto picks OSC 9 in terminals known to show it, else BEL", () => {
  assert.deepEqual(notificationMethod(undefined), { method: "auto", warning: null });
  assert.deepEqual(notificationMethod("bel"), { method: "bel", warning: null });
  assert.match(notificationMethod("toast").warning ?? "", /must be one of auto, osc9, bel; got "toast"/);
  assert.equal(resolveMethod("auto", { TERM_PROGRAM: "iTerm.app" }), "osc9");
  assert.equal(resolveMethod("auto", { TERM_PROGRAM: "WezTerm" }), "osc9");
  assert.equal(resolveMethod("auto", { TERM: "xterm-ghostty" }), "osc9");
  assert.equal(resolveMethod("auto", { TERM: "xterm-kitty" }), "osc9");
  assert.equal(resolveMethod("auto", { TERM_PROGRAM: "Apple_Terminal", TERM: "xterm-256color" }), "bel");
  assert.equal(resolveMethod("osc9", {}), "osc9");

  const written: string[] = [];
  const bell = new FocusNotifier(notificationEvents(true).events, { TERM: "xterm" }, "auto");
  bell.start((d) => written.push(d));
  bell.filterInput("\u001b[O");
  assert.equal(bell.turnComplete("done"), true);
  assert.deepEqual(written, [FOCUS_TRACKING_ON, "\u0007"]);
});
