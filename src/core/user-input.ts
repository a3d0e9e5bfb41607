/** Turns a user's input (text, image URLs, local image files) into one user message item. */
import { resolve } from "node:path";
import type { UserInput } from "../protocol/ops.js";
import type { ContentItem, ResponseItem } from "../protocol/items.js";
import { loadImageFile } from "../util/image-file.js";
import { errorMessage } from "../util/errors.js";

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

/** Reads an image into a data URL; a file that is missing or no usable image becomes a note the model can read. */
async function localImage(path: string, cwd: string): Promise<ContentItem> {
  try {
    const image = await loadImageFile(resolve(cwd, path));
    return { type: "input_image", image_url: image.dataUrl };
  } catch (err) {
    return { type: "input_text", text: `[image ${path} not attached: ${errorMessage(err)}]` };
  }
}

export function inputText(inputs: UserInput[]): string {
  return inputs.map((i) => (i.type === "text" ? i.text : "")).filter(Boolean).join("\n");
}
