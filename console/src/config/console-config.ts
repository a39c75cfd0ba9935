/**
 * Where the console finds the management API, written by whoever serves it: the local runtime
 * answers /console/config.json with its management URL and org id; a deployment writes the file
 * next to the assets. Without one the console calls the origin it was loaded from.
 */
export interface ConsoleConfig {
  readonly managementUrl: string;
  /** Pre-fills the sign-in form (local mode knows its one organisation). */
  readonly orgId?: string;
  /** The collector's URL, for the SDK snippets (local mode knows it). */
  readonly collectorUrl?: string;
}

export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  try {
    const response = await fetch(`${import.meta.env.BASE_URL}config.json`, { headers: { accept: 'application/json' } });
    if (response.ok) {
      const body = (await response.json()) as { management_url?: string; org_id?: string; collector_url?: string };
      return {
        managementUrl: body.management_url ?? window.location.origin,
        ...(body.org_id ? { orgId: body.org_id } : {}),
        ...(body.collector_url ? { collectorUrl: body.collector_url } : {}),
      };
    }
  } catch {
    // No config file: the API is on this origin.
  }
  return { managementUrl: window.location.origin };
}
