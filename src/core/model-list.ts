/**
 * The models a thread may switch to, as `list_models` reports them and spawn_agent offers them:
 * the account's own list (a ChatGPT login) in its picker order, or the catalog's families that
 * name a model, the thread's current model first.
 */
import { FAMILY_PREFIXES } from "../model/catalog.js";
import { defaultAccountModel, type AccountModel } from "./account-models.js";

export interface AvailableModels {
  source: "account" | "catalog";
  models: Array<{ slug: string; is_default: boolean }>;
}

export function availableModels(accountModels: AccountModel[] | null | undefined, currentModel: string, configuredModel: string): AvailableModels {
  if (accountModels && accountModels.length > 0) {
    const listed = accountModels.filter((m) => m.listed).sort((a, b) => a.priority - b.priority);
    const preferred = defaultAccountModel(accountModels);
    return { source: "account", models: listed.map((m) => ({ slug: m.slug, is_default: m.slug === preferred })) };
  }
  const slugs = [...new Set([currentModel, ...FAMILY_PREFIXES.filter((p) => /\d/.test(p) && !p.endsWith("-") && !p.includes("/"))])];
  return { source: "catalog", models: slugs.map((slug) => ({ slug, is_default: slug === configuredModel })) };
}
