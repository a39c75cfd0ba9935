import type { Operation } from '../shared/http/handler';

// Skeleton: filled in by the OpenAPI work.
export function openApiOperations(_api: 'collector' | 'management'): Record<string, Operation<unknown>> {
  return {};
}
