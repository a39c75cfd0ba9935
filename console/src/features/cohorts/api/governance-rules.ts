import { useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';

/** A governance rule as stored, and the body that creates one (both from the OpenAPI document). */
export type StoredGovernanceRule = components['schemas']['GovernanceRule'];
export type GovernanceRuleInput = components['schemas']['GovernanceRuleCreate'];

export function useGovernanceRule(id: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: ['governance', 'rules', id],
    enabled: id !== undefined,
    queryFn: async () => dataOf(await api.GET('/~/governance/rules/{id}', { params: { path: { id: id ?? '' } } })),
  });
}

/** Creates a rule, or replaces one's fields when `id` is given; the API checks regexes and cohorts and names what it refuses. */
export function useSaveGovernanceRule() {
  return useApiMutation(['governance'], async (api, input: { id?: string; rule: GovernanceRuleInput }) =>
    input.id
      ? dataOf(await api.POST('/~/governance/rules/{id}', { params: { path: { id: input.id } }, body: input.rule }))
      : dataOf(await api.POST('/~/governance/rules', { body: input.rule })),
  );
}

export function useDeleteGovernanceRule() {
  return useApiMutation(['governance'], async (api, id: string) => dataOf(await api.DELETE('/~/governance/rules/{id}', { params: { path: { id } } })));
}

/** Who the rule hits now, as the last refresh computed it (what the SDKs apply); refreshed every 15 s while shown. */
export type RuleMembers = components['schemas']['GovernanceRuleMembers'];
export function useGovernanceRuleMembers(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['governance', 'rules', id, 'members'],
    refetchInterval: 15_000,
    queryFn: async () => dataOf(await api.GET('/~/governance/rules/{id}/members', { params: { path: { id }, query: { take: 100 } } })),
  });
}
