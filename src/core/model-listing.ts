/**
 * The models a thread may switch to: the account's own list (a ChatGPT login) in its picker
 * order, or else the catalog's families that name a model (not a bare prefix), the current model
 * first. One list for the `list_models` op, spawn_agent's `model` parameter, and front ends that
 * ask without a thread (the app-server's `model/list`).
 */
import { FAMILY_PREFIXES, modelInfoFor } from "../model/catalog.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import { defaultAccountModel, type AccountModel } from "./account-models.js";

export interface AvailableModels {
  source: "account" | "catalog";
  models: Array<{ slug: string; is_default: boolean }>;
}

export interface CatalogModel {
  slug: string;
  /** Whether requests to it carry the reasoning setting (so an effort can be chosen). */
  supportsReasoning: boolean;
  defaultReasoningEffort: ReasoningEffort | null;
}

export function catalogModelSlugs(current: string): string[] {
  return [...new Set([current, ...FAMILY_PREFIXES.filter((p) => /\d/.test(p) && !p.endsWith("-") && !p.includes("/"))])];
}

export function catalogModels(current: string): CatalogModel[] {
  return catalogModelSlugs(current).map((slug) => {
    const info = modelInfoFor(slug);
    return { slug, supportsReasoning: info.supportsReasoning, defaultReasoningEffort: info.defaultReasoningEffort };
  });
}

export function availableModels(accountModels: AccountModel[] | null | undefined, currentModel: string, configuredModel: string): AvailableModels {
  if (accountModels && accountModels.length > 0) {
    const listed = accountModels.filter((m) => m.listed).sort((a, b) => a.priority - b.priority);
    const preferred = defaultAccountModel(accountModels);
    return { source: "account", models: listed.map((m) => ({ slug: m.slug, is_default: m.slug === preferred })) };
  }
  return { source: "catalog", models: catalogModelSlugs(currentModel).map((slug) => ({ slug, is_default: slug === configuredModel })) };
}
