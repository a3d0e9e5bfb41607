/**
 * Where exec's prompt comes from: the argument, or stdin when the argument is `-` or absent.
 * When both are given (a prompt plus piped input), the piped text is appended in a <stdin>
 * block so the model can tell the instruction from the material.
 */
import { text } from "node:stream/consumers";

export class PromptError extends Error {}

export async function readPrompt(arg: string | undefined, stdin: NodeJS.ReadStream): Promise<string> {
  if (arg !== undefined && arg !== "-") {
    if (stdin.isTTY) return arg;
    const piped = await text(stdin);
    return piped.trim() ? `${arg}\n\n<stdin>\n${piped.replace(/\n$/, "")}\n</stdin>` : arg;
  }
  if (arg === undefined && stdin.isTTY) {
    throw new PromptError("No prompt provided. Pass one as an argument, or pipe it into stdin (use - to read stdin explicitly).");
  }
  const piped = await text(stdin);
  if (!piped.trim()) throw new PromptError("No prompt provided via stdin.");
  return piped;
}
