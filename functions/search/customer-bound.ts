import type { QueryNode } from '../../schemas/search-tree';
import type { CustomerBound } from './port';

/**
 * The terms a customer-bound read must match (its company, and its subscription when bound), as
 * query nodes each backend compiles like any term query, so they resolve the fields alike.
 */
export function customerTerms(customer: CustomerBound | undefined): QueryNode[] {
  if (customer === undefined) return [];
  const term = (field: string, value: string): QueryNode => ({ type: 'term', field, value, case_insensitive: false });
  return [term('company_id', customer.company_id), ...(customer.subscription_id === undefined ? [] : [term('subscription_id', customer.subscription_id)])];
}
