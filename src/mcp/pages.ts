/** Cursor-paged MCP listings (tools, resources, templates), followed to the end. */

export interface PageResult<T> {
  items: T[];
  nextCursor?: string;
}

/** Every page of a listing, following cursors (a repeated cursor is an error, not a loop). */
export async function collectPages<T>(page: (cursor: string | undefined) => Promise<PageResult<T>>, label: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const result = await page(cursor);
    items.push(...result.items);
    if (result.nextCursor === undefined) return items;
    if (result.nextCursor === cursor) throw new Error(`${label} returned duplicate cursor`);
    cursor = result.nextCursor;
  }
}
