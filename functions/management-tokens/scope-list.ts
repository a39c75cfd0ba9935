import { managementScopes, ManagementScope } from '../../schemas/scopes';
import type { UserScope } from '../../schemas/org';

/** Splits a scope parameter ("a b", "a,b", "a, b") into its names; empty or absent → undefined. */
export function splitScopeList(text: string | undefined): string[] | undefined {
  const names = (text ?? '').split(/[\s,]+/).filter(Boolean);
  return names.length ? [...new Set(names)] : undefined;
}

/** The management scopes a user's stored scopes grant (`admin` = all of them). */
export function effectiveScopes(userScopes: readonly UserScope[]): ManagementScope[] {
  if (userScopes.includes('admin')) return [...managementScopes];
  return managementScopes.filter((s) => userScopes.includes(s));
}

export function isManagementScope(name: string): name is ManagementScope {
  return ManagementScope.safeParse(name).success;
}
