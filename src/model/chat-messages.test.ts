import { test } from "node:test";
import assert from "node:assert/strict";
import { developerText, userText, type ResponseItem } from "../protocol/items.js";
import { toChatMessages, type ChatMessage } from "./chat-messages.js";

const assistant = (text: string): ResponseItem => ({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
const call = (id: string, name = "exec_command", args = '{"cmd":"ls"}'): ResponseItem => ({
  type: "function_call",
  name,
  arguments: args,
  call_id: id,
});
const output = (id: string, text: string): ResponseItem => ({ type: "function_call_output", call_id: id, output: text });

void test("the leading developer items become one system message; later ones stay in place as system", () => {
  const input: ResponseItem[] = [
    developerText("base instructions"),
    {
      type: "message",
      role: "developer",
      content: [
        { type: "input_text", text: "permissions" },
        { type: "input_text", text: "developer instructions" },
      ],
    },
    userText("env"),
    userText("hi"),
    assistant("hello"),
    developerText("permissions changed"),
    userText("again"),
  ];
  assert.deepEqual(toChatMessages(input), [
    { role: "system", content: "base instructions\n\npermissions\n\ndeveloper instructions" },
    { role: "user", content: "env" },
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
    { role: "system", content: "permissions changed" },
    { role: "user", content: "again" },
  ]);
});

void test("user text is a plain string; images turn the content into parts", () => {
  const input: ResponseItem[] = [
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "a" },
        { type: "input_text", text: "b" },
      ],
    },
    {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "what is this?" },
        { type: "input_image", image_url: "data:image/png;base64,AAAA" },
      ],
    },
  ];
  assert.deepEqual(toChatMessages(input), [
    { role: "user", content: "a\nb" },
    {
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ],
    },
  ]);
});

void test("parallel calls share one assistant message, with the text before them, and each is answered in call order", () => {
  const input: ResponseItem[] = [
    userText("go"),
    { type: "reasoning", summary: [], encrypted_content: "opaque" },
    assistant("Checking two things."),
    call("c1"),
    call("c2", "exec_command", '{"cmd":"pwd"}'),
    output("c1", "file.txt"),
    output("c2", "/tmp"),
    assistant("done"),
  ];
  assert.deepEqual(toChatMessages(input), [
    { role: "user", content: "go" },
    {
      role: "assistant",
      content: "Checking two things.",
      tool_calls: [
        { id: "c1", type: "function", function: { name: "exec_command", arguments: '{"cmd":"ls"}' } },
        { id: "c2", type: "function", function: { name: "exec_command", arguments: '{"cmd":"pwd"}' } },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "file.txt" },
    { role: "tool", tool_call_id: "c2", content: "/tmp" },
    { role: "assistant", content: "done" },
  ]);
});

void test("calls without text have null content; consecutive answers each get their own assistant message", () => {
  const input: ResponseItem[] = [userText("go"), call("c1"), output("c1", "one"), call("c2"), output("c2", "two")];
  const messages = toChatMessages(input);
  assert.deepEqual(
    messages.map((m) => [m.role, m.role === "assistant" ? m.content : null, m.role === "tool" ? m.tool_call_id : null]),
    [
      ["user", null, null],
      ["assistant", null, null],
      ["tool", null, "c1"],
      ["assistant", null, null],
      ["tool", null, "c2"],
    ],
  );
});

void test("custom tool calls become function calls taking {input}; their outputs are tool messages", () => {
  const patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n";
  const input: ResponseItem[] = [
    userText("patch it"),
    { type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "p1" },
    { type: "custom_tool_call_output", call_id: "p1", output: "Success." },
  ];
  const expected: ChatMessage[] = [
    { role: "user", content: "patch it" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "p1", type: "function", function: { name: "apply_patch", arguments: JSON.stringify({ input: patch }) } }],
    },
    { role: "tool", tool_call_id: "p1", content: "Success." },
  ];
  assert.deepEqual(toChatMessages(input), expected);
  const args = (expected[1] as { tool_calls: { function: { arguments: string } }[] }).tool_calls[0]?.function.arguments ?? "";
  assert.deepEqual(JSON.parse(args), { input: patch });
});

void test("every call is answered right after its message: missing outputs say aborted, stray outputs are dropped", () => {
  const input: ResponseItem[] = [
    userText("go"),
    call("c1"),
    userText("steer"), // Out of place: the answer to c1 comes after it in history.
    output("c1", "late"),
    call("c2"),
    output("nobody", "orphan"),
    userText("next"),
  ];
  assert.deepEqual(
    toChatMessages(input).map((m) => (m.role === "tool" ? `tool:${m.tool_call_id}:${m.content}` : m.role)),
    ["user", "assistant", "tool:c1:late", "user", "assistant", "tool:c2:aborted", "user"],
  );
});

void test("an assistant message with no text at all is sent as empty content, and web search records are dropped", () => {
  const input: ResponseItem[] = [
    userText("q"),
    { type: "web_search_call", status: "completed", action: { type: "search", query: "x" } },
    { type: "message", role: "assistant", content: [] },
  ];
  assert.deepEqual(toChatMessages(input), [
    { role: "user", content: "q" },
    { role: "assistant", content: "" },
  ]);
});

void test("an output with images (an MCP tool's) is sent as its text parts: tool messages only take text", () => {
  const input: ResponseItem[] = [
    userText("look"),
    call("m1", "mcp__fx__image", "{}"),
    {
      type: "function_call_output",
      call_id: "m1",
      output: [
        { type: "input_text", text: "a tiny image" },
        { type: "input_image", image_url: "data:image/png;base64,AA==", detail: "high" },
        { type: "input_text", text: "and a caption" },
      ],
    },
    call("m2", "mcp__fx__image", "{}"),
    { type: "function_call_output", call_id: "m2", output: [{ type: "input_image", image_url: "data:image/png;base64,AA==" }] },
  ];
  const tools = toChatMessages(input).filter((m) => m.role === "tool");
  assert.deepEqual(tools, [
    { role: "tool", tool_call_id: "m1", content: "a tiny image\nand a caption" },
    { role: "tool", tool_call_id: "m2", content: "<image content omitted because you do not support image input>" },
  ]);
});
