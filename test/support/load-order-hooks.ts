/**
 * Module hooks (node:module `register`) that append the URL of every module the program loads
 * to the file named by LOAD_ORDER_LOG, one a line, in the order they load. Used through
 * `loadOrderEnv()` in load-order.ts.
 */
import { appendFileSync } from "node:fs";

interface LoadContext {
  format?: string | null;
}
type NextLoad = (url: string, context: LoadContext) => Promise<unknown>;

export async function load(url: string, context: LoadContext, nextLoad: NextLoad): Promise<unknown> {
  const log = process.env.LOAD_ORDER_LOG;
  if (log) appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
