import * as z from 'zod';

/** Every Management API scope of the spec, "action:resource". */
export const managementScopes = [
  'create:apps', 'read:apps', 'update:apps', 'delete:apps',
  'update:organizations',
  'create:access_tokens',
  'create:events', 'read:events',
  'create:users', 'read:users', 'update:users', 'delete:users',
  'create:companies', 'read:companies', 'update:companies', 'delete:companies',
  'create:dashboards', 'read:dashboards', 'update:dashboards', 'delete:dashboards',
  'create:workspaces', 'read:workspaces', 'update:workspaces', 'delete:workspaces', 'read:public_workspaces',
  'create:cohorts', 'read:cohorts', 'update:cohorts', 'delete:cohorts',
  'create:virtual_eventtypes', 'read:virtual_eventtypes', 'update:virtual_eventtypes', 'delete:virtual_eventtypes',
  'create:reports', 'read:reports', 'delete:reports',
  'create:encrypted_keys', 'read:encrypted_keys', 'update:encrypted_keys', 'delete:encrypted_keys',
  'create:eth_abi',
] as const;

export const ManagementScope = z.enum(managementScopes);
export type ManagementScope = z.infer<typeof ManagementScope>;
