/**
 * Where to go after signing in. Only a path on this site is accepted, so a crafted link cannot send
 * a freshly signed-in user elsewhere (open redirect).
 */
export function safeRedirectTarget(target: string | undefined): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (target.startsWith('/login') || target.startsWith('/register')) return '/';
  return target;
}
