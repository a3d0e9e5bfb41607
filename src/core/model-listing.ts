/**
 * The models a thread may switch to when no account lists them: the catalog's families that name
 * a model (not a bare prefix), the current model first. One list for the `list_models` op and
 * for front ends that ask without a thread (the app-server's `model/list`).
 */
import { FAMILY_PREFIXES, modelInfoFor } from "../model/catalog.js";
import type { ReasoningEffort } from "../protocol/policy.js";

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
