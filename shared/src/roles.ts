export const roles = ['user', 'admin', 'super_admin'] as const;
export type Role = (typeof roles)[number];

export function isAdminRole(userRoles: readonly string[]): boolean {
  return userRoles.includes('admin') || userRoles.includes('super_admin');
}
