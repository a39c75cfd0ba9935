import type { ManagementCaller } from '../auth/management-auth';
import type { Operation } from '../shared/http/handler';

// Skeleton: filled in by the OAuth work (password flow, minting, revocation).
export function oauthOperations(_deps: unknown): Record<string, Operation<ManagementCaller | undefined>> {
  return {};
}
