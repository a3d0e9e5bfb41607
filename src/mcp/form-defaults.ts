/**
 * SEP-1034: an elicitation form may declare a `default` for each field. When the user accepts
 * without giving a value for a field that has one, the client sends the default, so the server
 * gets a complete answer.
 */
export function withFormDefaults(requestedSchema: unknown, content: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const properties =
    typeof requestedSchema === "object" && requestedSchema !== null ? (requestedSchema as { properties?: unknown }).properties : undefined;
  if (typeof properties !== "object" || properties === null) return content;
  const filled: Record<string, unknown> = { ...(content ?? {}) };
  for (const [name, field] of Object.entries(properties as Record<string, unknown>)) {
    if (filled[name] !== undefined || typeof field !== "object" || field === null) continue;
    const fallback = (field as { default?: unknown }).default;
    if (fallback !== undefined) filled[name] = fallback;
  }
  return Object.keys(filled).length > 0 ? filled : content;
}
