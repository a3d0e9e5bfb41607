/** The credentials a session of this config would use, for the doctor's auth check (cli/doctor). */
import type { Config } from "../../config/load-config.js";
import { resolveRunAuth } from "../../core/model-access.js";

export function runCredentials(config: Config, env: NodeJS.ProcessEnv): ReturnType<typeof resolveRunAuth> {
  return resolveRunAuth(config, env, true);
}
