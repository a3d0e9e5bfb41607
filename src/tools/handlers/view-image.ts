/**
 * view_image: the model attaches a local image (a screenshot, a rendered chart) to the
 * conversation. The path is resolved against the turn's cwd; a path the permission profile
 * denies is refused (commands could not read it either), nothing else is checked. As in the reference, the
 * image comes back as the call's output (one input_image content item, full detail) and a
 * view_image_tool_call event tells front ends which file it was; a file that is missing, not a
 * file, not an image or too large gets the model a sentence saying which.
 */
import { resolve } from "node:path";
import { ImageFileError, loadImageFile } from "../../util/image-file.js";
import { ToolError, parseArguments, type ToolHandler, type ToolInvocation, type ToolOutput } from "../types.js";

export const viewImageHandler: ToolHandler = {
  payloadKind: "function",
  async handle(invocation: ToolInvocation): Promise<ToolOutput> {
    const { path } = parseArguments<{ path: string }>(invocation);
    const absolute = resolve(invocation.turn.cwd, path);
    const denied = invocation.turn.services.fileSystemGuard?.deniedReason(absolute) ?? null;
    if (denied !== null) throw new ToolError(denied);
    let dataUrl: string;
    try {
      ({ dataUrl } = await loadImageFile(absolute));
    } catch (err) {
      if (err instanceof ImageFileError) throw new ToolError(err.message);
      throw err;
    }
    invocation.emit({ type: "view_image_tool_call", call_id: invocation.callId, path: absolute });
    return {
      text: `attached image ${absolute}`,
      success: true,
      contentItems: [{ type: "input_image", image_url: dataUrl, detail: "original" }],
    };
  },
};
