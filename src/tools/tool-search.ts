/**
 * tool_search: tools the model is not offered up front (an MCP server's, which can number in the
 * hundreds) wait in a catalog, grouped by namespace (`mcp__<server>`). The model learns which
 * namespaces exist from one developer message (`<tools>Deferred tool namespaces: …</tools>`),
 * searches them with the hosted `tool_search` tool (run here: BM25 over names and descriptions),
 * and gets the matches back as a `tool_search_output` of namespaces, whose tools it then calls
 * by name with the namespace beside it.
 */
import type { ToolSearchArguments } from "../protocol/items.js";
import type { JsonSchema, ToolNamespace, ToolSpec } from "../protocol/tool-spec.js";

const DEFAULT_LIMIT = 8;
/** BM25's usual constants: term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

interface Entry {
  namespace: string;
  /** The name the model calls it by inside its namespace. */
  name: string;
  spec: Extract<ToolSpec, { type: "function" }>;
  terms: string[];
}

function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0);
}

export function toolSearchSpec(): ToolSpec {
  return {
    type: "tool_search",
    execution: "client",
    description:
      "# Finding more tools\n\nSome tools are not listed up front: their namespaces are named in a <tools> note. Search them with a few keywords; the tools that match are added for your next call. For an MCP server's tools, search here rather than listing its resources.",
    parameters: {
      type: "object",
      properties: {
        limit: { type: "number", description: "How many tools to return at most (8 when left out)." },
        query: { type: "string", description: "Keywords describing the tool you need." },
      },
      required: ["query"],
      additionalProperties: false,
    },
  };
}

export class ToolSearchCatalog {
  private readonly entries: Entry[] = [];
  private readonly descriptions = new Map<string, string>();
  private readonly notes = new Map<string, string>();

  get size(): number {
    return this.entries.length;
  }

  /**
   * Adds a function tool under `namespace`, called by `name` there. `note`: what the `<tools>` note
   * says of the namespace after its name (the collab namespace's description, as the reference
   * writes it); absent, the note names it alone.
   */
  add(namespace: string, name: string, spec: Extract<ToolSpec, { type: "function" }>, namespaceDescription: string, note?: string): void {
    this.descriptions.set(namespace, namespaceDescription);
    if (note !== undefined) this.notes.set(namespace, note);
    this.entries.push({ namespace, name, spec, terms: terms(`${namespace} ${name} ${spec.description}`) });
  }

  /** The qualified name a namespaced call resolves to (the handler's key). */
  qualifiedName(namespace: string, name: string): string | null {
    return this.entries.some((e) => e.namespace === namespace && e.name === name) ? `${namespace}__${name}` : null;
  }

  /** The parameters schema of a deferred tool, by its qualified name (`<namespace>__<name>`); null when there is none. */
  parameters(qualified: string): JsonSchema | null {
    return this.entries.find((e) => `${e.namespace}__${e.name}` === qualified)?.spec.parameters ?? null;
  }

  /** The developer message naming the namespaces; null when nothing is deferred. */
  announcement(): string | null {
    if (this.entries.length === 0) return null;
    const names = [...this.descriptions.keys()].sort();
    const line = (n: string): string => (this.notes.has(n) ? `- ${n}: ${this.notes.get(n)}` : `- ${n}`);
    return `<tools>\nDeferred tool namespaces:\n${names.map(line).join("\n")}\n</tools>`;
  }

  /** The best matches, grouped by namespace in rank order, as tool_search_output carries them. */
  search(args: ToolSearchArguments): ToolNamespace[] {
    const query = terms(args.query ?? "");
    const limit = typeof args.limit === "number" && args.limit > 0 ? Math.floor(args.limit) : DEFAULT_LIMIT;
    if (query.length === 0 || this.entries.length === 0) return [];
    const n = this.entries.length;
    const avgLength = this.entries.reduce((sum, e) => sum + e.terms.length, 0) / n;
    const documentFrequency = new Map<string, number>();
    for (const e of this.entries) for (const t of new Set(e.terms)) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
    const scored = this.entries
      .map((entry, index) => {
        let score = 0;
        for (const q of new Set(query)) {
          const tf = entry.terms.filter((t) => t === q).length;
          if (tf === 0) continue;
          const df = documentFrequency.get(q) ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * entry.terms.length) / avgLength));
        }
        return { entry, index, score };
      })
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, limit);
    const groups = new Map<string, ToolNamespace>();
    for (const { entry } of scored) {
      let group = groups.get(entry.namespace);
      if (!group) {
        group = { type: "namespace", name: entry.namespace, description: this.descriptions.get(entry.namespace) ?? "", tools: [] };
        groups.set(entry.namespace, group);
      }
      const { description, strict, parameters } = entry.spec;
      group.tools.push({ type: "function", name: entry.name, description, strict, defer_loading: true, parameters });
    }
    return [...groups.values()];
  }
}
