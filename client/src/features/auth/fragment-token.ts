/**
 * Reads a token from the URL fragment (`#token=…`, `#invitation=…`). Links carry tokens there so
 * they never reach a server log or a Referer header.
 */
export function fragmentToken(hash: string, name: string): string | null {
  const value = new URLSearchParams(hash.replace(/^#/, '')).get(name)?.trim();
  return value ? value : null;
}
