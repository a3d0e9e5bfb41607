/**
 * `/model`'s "make it the default": the model and its reasoning effort written into the user's
 * config.toml (into the active profile's table when a profile is in use, as the reference
 * does), in place, comments and layout kept. The default effort ("the model's own") removes
 * the key.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ReasoningEffort } from "../protocol/policy.js";
import { removeTableValue, setTableValue } from "../config/toml-edit.js";
import { writeFileAtomic } from "../util/atomic-write.js";
import { errorCode } from "../util/errors.js";

export async function saveModelChoice(codexHome: string, profile: string | null, model: string, effort: ReasoningEffort | null): Promise<string> {
  const file = join(codexHome, "config.toml");
  let text = "";
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    if (errorCode(err) !== "ENOENT") throw err;
  }
  const table = profile === null ? [] : ["profiles", profile];
  let edited = setTableValue(text, table, "model", model);
  edited = effort === null ? removeTableValue(edited, table, "model_reasoning_effort") : setTableValue(edited, table, "model_reasoning_effort", effort);
  if (!edited.endsWith("\n")) edited += "\n";
  await mkdir(codexHome, { recursive: true });
  writeFileAtomic(file, edited, 0o600);
  return file;
}
