import { createContext, useContext, type ReactNode } from 'react';
import type { ManagementClient } from './api-client';

const ApiContext = createContext<ManagementClient | undefined>(undefined);

export function ApiProvider({ client, children }: { client: ManagementClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The management API client the app was started with. */
export function useApi(): ManagementClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider above it');
  return client;
}
