/** Turns a user's input (text, image URLs, local image files) into one user message item. */
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { UserInput } from "../protocol/ops.js";
import type { ContentItem, ResponseItem } from "../protocol/items.js";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

export async function userMessageFrom(inputs: UserInput[], cwd: string): Promise<ResponseItem> {
  const content: ContentItem[] = [];
  for (const input of inputs) {
    switch (input.type) {
      case "text":
        content.push({ type: "input_text", text: input.text });
        break;
      case "image":
        content.push({ type: "input_image", image_url: input.image_url });
        break;
      case "local_image":
        content.push(await localImage(input.path, cwd));
        break;
    }
  }
  return { type: "message", role: "user", content };
}

/** Reads an image into a data URL; a missing file becomes a note the model can read. */
async function localImage(path: string, cwd: string): Promise<ContentItem> {
  const absolute = path.startsWith("/") ? path : `${cwd}/${path}`;
  const mime = IMAGE_TYPES[extname(absolute).toLowerCase()] ?? "application/octet-stream";
  try {
    const data = await readFile(absolute);
    return { type: "input_image", image_url: `data:${mime};base64,${data.toString("base64")}` };
  } catch (err) {
    return { type: "input_text", text: `[image ${path} could not be read: ${(err as Error).message}]` };
  }
}

export function inputText(inputs: UserInput[]): string {
  return inputs.map((i) => (i.type === "text" ? i.text : "")).filter(Boolean).join("\n");
}
