import type { ManagementCaller } from '../auth/management-auth';
import type { Operation } from '../shared/http/handler';

// Skeleton: filled in by the resources work.
export function resourceOperations(_deps: unknown): Record<string, Operation<ManagementCaller | undefined>> {
  return {};
}
