/**
 * `--search`, shared by every command that starts a session (exec, and the interactive UI):
 * turns on live web search for the run, as `web_search = "live"` would.
 */
import { Option } from "commander";

export function searchOption(): Option {
  return new Option("--search", 'let the model search the live web (the hosted web_search tool; same as -c web_search="live")');
}
