/**
 * What the model reads back from an MCP tool call, converted as the reference does:
 *   - `structuredContent` present (and not null): its JSON text, nothing else;
 *   - otherwise, if any content block is an image: a list of content items (text blocks as
 *     input_text, images as input_image data URLs, other blocks as input_text holding their JSON);
 *   - otherwise: the JSON text of the `content` array.
 * `isError: true` makes the output unsuccessful. Failures that never reached the server (bad
 * arguments, timeouts, a dead server) become a one-text-block error result.
 */
import { functionOutputText, IMAGE_OMITTED_TEXT, type FunctionCallOutputContentItem, type ImageDetail } from "../protocol/items.js";
import type { ToolOutput } from "../tools/types.js";
import type { McpCallToolResult } from "../protocol/mcp-events.js";

export { IMAGE_OMITTED_TEXT, type FunctionCallOutputContentItem, type ImageDetail } from "../protocol/items.js";

/**
 * A tool output that may carry content items (see ToolOutput). `text` is always set: it is what
 * a wire that only takes strings (Chat Completions) sends.
 */
export type McpToolOutput = ToolOutput;

const DEFAULT_IMAGE_DETAIL: ImageDetail = "high";
const IMAGE_DETAIL_META_KEY = "codex/imageDetail";
const IMAGE_DETAILS: readonly string[] = ["auto", "low", "high", "original"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The reference's `CallToolResult::from_error_text`. */
export function errorResult(text: string): McpCallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

export function isSuccess(result: McpCallToolResult): boolean {
  return result.isError !== true;
}

/** For models without image input, image blocks become a note saying so. */
export function withoutImages(result: McpCallToolResult): McpCallToolResult {
  return {
    ...result,
    content: result.content.map((block) =>
      isRecord(block) && block.type === "image" ? { type: "text", text: IMAGE_OMITTED_TEXT } : block,
    ),
  };
}

function imageItem(block: Record<string, unknown>): FunctionCallOutputContentItem | null {
  if (typeof block.data !== "string") return null;
  const mime = typeof block.mimeType === "string" ? block.mimeType : typeof block.mime_type === "string" ? block.mime_type : null;
  const imageUrl = block.data.startsWith("data:") ? block.data : `data:${mime ?? "application/octet-stream"};base64,${block.data}`;
  const meta = isRecord(block._meta) ? block._meta[IMAGE_DETAIL_META_KEY] : undefined;
  const detail = typeof meta === "string" && IMAGE_DETAILS.includes(meta) ? (meta as ImageDetail) : DEFAULT_IMAGE_DETAIL;
  return { type: "input_image", image_url: imageUrl, detail };
}

/** Content items when some block is an image; null otherwise (the output is then plain text). */
export function contentItems(content: unknown[]): FunctionCallOutputContentItem[] | null {
  let sawImage = false;
  const items: FunctionCallOutputContentItem[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") {
      items.push({ type: "input_text", text: block.text });
      continue;
    }
    if (isRecord(block) && block.type === "image") {
      const item = imageItem(block);
      if (item) {
        sawImage = true;
        items.push(item);
        continue;
      }
    }
    items.push({ type: "input_text", text: JSON.stringify(block) });
  }
  return sawImage ? items : null;
}

/** Text segments joined by newlines, for wires that cannot carry images (Chat Completions). */
export function itemsText(items: FunctionCallOutputContentItem[]): string {
  return functionOutputText(items);
}

export function toolOutputFromResult(result: McpCallToolResult): McpToolOutput {
  const success = isSuccess(result);
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { text: JSON.stringify(result.structuredContent), success };
  }
  const items = contentItems(result.content);
  if (items) return { text: itemsText(items), success, contentItems: items };
  return { text: JSON.stringify(result.content), success };
}
