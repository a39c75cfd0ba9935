import { customerRoute, manage, type RouteDefinition } from './route-types';

/**
 * The route table's customer-access section (routes.ts): minting and revoking customer tokens
 * (server to server, with a management token), and what a customer token opens.
 */
export const customerRoutes: readonly RouteDefinition[] = [
  manage(
    'POST',
    '/~/customer_tokens',
    'customerTokens.create',
    'read:public_workspaces',
    'Mint a short-lived token for one customer (company): its template workspaces, usage, bill and spend cap, and nothing else; nothing is stored',
  ),
  manage('GET', '/~/customer_tokens/revocations', 'customerTokens.revocations.list', 'read:public_workspaces', 'Customers whose tokens are revoked'),
  manage(
    'PUT',
    '/~/customer_tokens/revocations/{companyId}',
    'customerTokens.revocations.put',
    'update:workspaces',
    'Revoke every token of a customer issued until now (tokens minted later work)',
  ),
  manage('DELETE', '/~/customer_tokens/revocations/{companyId}', 'customerTokens.revocations.delete', 'update:workspaces', "Lift a customer's revocation"),
  customerRoute('GET', '/public/customers/{token}', 'customerView', 'What a customer token opens: the customer, its bound values and its template workspaces'),
  customerRoute(
    'GET',
    '/public/customers/{token}/workspaces/{workspaceId}/data',
    'customerTemplateData',
    "Run a template workspace's stored query for the customer (its dynamic fields bound to the token's values)",
  ),
  customerRoute(
    'GET',
    '/public/customers/{token}/usage',
    'customerUsage',
    "The customer's usage this billing period per meter, the amount so far, the estimated bill, balances and daily usage",
  ),
  customerRoute('GET', '/public/customers/{token}/spend_cap', 'customerSpendCapGet', "The customer's spend cap and where it stands"),
  customerRoute('PUT', '/public/customers/{token}/spend_cap', 'customerSpendCapPut', "Set the customer's spend cap (budget, warning threshold, hard cap)"),
  customerRoute('DELETE', '/public/customers/{token}/spend_cap', 'customerSpendCapDelete', "Remove the customer's spend cap"),
];
