import { customerRoute, manage, open, type RouteDefinition } from './route-types';

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
  customerRoute(
    'GET',
    '/public/customers/{token}/statement',
    'customerStatement',
    "A closed billing period's signed statement: amounts per meter and the digest of the events behind each (a new version whenever they change)",
  ),
  customerRoute(
    'GET',
    '/public/customers/{token}/statement/events',
    'customerStatementEvents',
    'The events behind one meter of a statement, a page of CSV lines at a time',
  ),
  // Anyone holding a statement checks it: the app's public key and the verification take no token.
  {
    api: 'management',
    method: 'GET',
    path: '/public/statement-keys/{orgId}/{appId}',
    lambda: 'management',
    operation: 'statementKey',
    auth: open,
    summary: "The app's statement signing key (Ed25519), its public half",
  },
  {
    api: 'management',
    method: 'POST',
    path: '/public/statement-verifications',
    lambda: 'management',
    operation: 'verifyStatement',
    auth: open,
    summary: "Check a statement: its signature under its app's key, whether a newer version exists, and the digests of downloaded event lists",
  },
  customerRoute('GET', '/public/customers/{token}/spend_cap', 'customerSpendCapGet', "The customer's spend cap and where it stands"),
  customerRoute('PUT', '/public/customers/{token}/spend_cap', 'customerSpendCapPut', "Set the customer's spend cap (budget, warning threshold, hard cap)"),
  customerRoute('DELETE', '/public/customers/{token}/spend_cap', 'customerSpendCapDelete', "Remove the customer's spend cap"),
];
