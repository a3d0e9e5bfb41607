/**
 * What the user approved "for the session": an approval covers later requests with the same
 * key (a command with its cwd and permissions, or a patched path), so the user is not asked
 * again about the same thing. Also holds the folders the user granted patches write access to.
 */
export class ApprovalStore {
  private readonly approved = new Set<string>();
  private readonly roots: string[] = [];

  /** True when every key was approved for the session (and there is at least one). */
  covers(kind: string, keys: readonly string[]): boolean {
    return keys.length > 0 && keys.every((key) => this.approved.has(`${kind}\0${key}`));
  }

  remember(kind: string, keys: readonly string[]): void {
    for (const key of keys) this.approved.add(`${kind}\0${key}`);
  }

  /** Folders outside the sandbox's roots that patches may write to for the rest of the session. */
  get grantedRoots(): readonly string[] {
    return this.roots;
  }

  grantRoot(root: string): void {
    if (!this.roots.includes(root)) this.roots.push(root);
  }
}

/** The cache key of a command approval: the exact argv, where it runs, and how. */
export function commandApprovalKey(argv: readonly string[], cwd: string, sandboxPermissions: string): string {
  return JSON.stringify({ command: argv, cwd, sandbox_permissions: sandboxPermissions });
}
