/** The pages the browser shows when ChatGPT sign-in ends: short, self-contained, our own words. */

export function successPage(): string {
  return page("Signed in to codex-ts", "You are signed in with your ChatGPT account.", "You can close this tab and go back to your terminal.");
}

export function failurePage(message: string): string {
  return page("Sign-in did not complete", message, "Go back to your terminal and run `codex-ts login` to try again.");
}

function page(title: string, message: string, next: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>${escapeHtml(next)}</p>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
