/**
 * The models a front end may offer without a thread to ask (the app-server's `model/list`): the
 * built-in catalog, the configured model first. A thread's `list_models` op also knows the
 * ChatGPT account's own list.
 */
import type { Config } from "../config/load-config.js";
import { catalogModels, type CatalogModel } from "../core/model-listing.js";

export type { CatalogModel };

export function modelCatalog(config: Config): CatalogModel[] {
  return catalogModels(config.model);
}
