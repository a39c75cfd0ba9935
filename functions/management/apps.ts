import { App, AppSettings } from '../../schemas/app';
import { AppCreate, AppUpdate, APP_SETTING_FIELDS } from '../../schemas/resources/app-input';
import { collectorKeyKey, newCollectorApplicationId, orgKey } from '../organisations/app-store';
import { assertTimeZone } from '../search/dates/time-zone';
import { assertLinearRegexConfig } from './regex-config-safety';
import { originOf } from '../shared/http/origin';
import { INLINE_PURGE_ITEMS, type AppPurger } from '../resources/app-purge';
import { crudOperations, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import type { StoredDocument } from '../resources/resource-store';

export const APP_PREFIX = 'APP';

/** Only holders of `create:access_tokens` (who may mint collector credentials anyway) see an app's collector id after creation. */
const COLLECTOR_ID_SCOPE = 'create:access_tokens';

/** What the API shows for an app; the rest of the item (org_id, cache hashes) stays internal. */
const READ_ONLY = [
  'id',
  'org_id',
  'app_id',
  'collector_application_id',
  'search_api_base_url',
  'portal_api_base_url',
  'secure_proxy',
  'created_at',
  'modified_at',
];

const isCreate = (ctx: ResourceContext) => ctx.request.method === 'POST' && ctx.request.pathParams.id === undefined;

function settingsOf(input: Partial<Record<(typeof APP_SETTING_FIELDS)[number], unknown>>): Partial<AppSettings> {
  return Object.fromEntries(APP_SETTING_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]])) as Partial<AppSettings>;
}

/** App response (spec: AppResponseDTO) plus its settings; the collector id per COLLECTOR_ID_SCOPE. */
export function appDocument(stored: StoredDocument, ctx: ResourceContext): Record<string, unknown> {
  const app = App.parse(stored);
  const origin = originOf(ctx.request);
  const document: Record<string, unknown> = {
    id: app.app_id,
    name: app.name,
    ...(app.custom_app_id === undefined ? {} : { custom_app_id: app.custom_app_id }),
    time_zone: app.time_zone,
    week_starts_on: app.week_starts_on,
    search_api_base_url: `${origin}/search/~`,
    portal_api_base_url: origin,
    secure_proxy: false,
    ...app.settings,
    created_at: app.created_at,
    modified_at: app.modified_at,
  };
  if (isCreate(ctx) || ctx.caller.scopes.includes(COLLECTOR_ID_SCOPE)) document.collector_application_id = app.collector_application_id;
  return document;
}

/**
 * Apps (`/~/apps`): the org's applications, stored at `ORG#<org>` / `APP#<id>` with their settings.
 * Creating one also issues its collector application id (`COLLECTOR_KEY#<id>`, same transaction);
 * deleting one frees that id, so the collector answers 401 for it (at once in this instance, within
 * the collector's cache TTL elsewhere), and purges the app's partition (app-purge.ts).
 */
export function appKind(deps: ResourceDeps): CrudKind<AppCreate, AppUpdate> {
  const { purger } = deps;
  return {
    noun: 'app',
    prefix: APP_PREFIX,
    idParam: 'id',
    location: (ctx) => ({ partition: orgKey(ctx.orgId).pk, prefix: APP_PREFIX }),
    createSchema: AppCreate,
    updateSchema: AppUpdate,
    readOnly: READ_ONLY,
    toStored: async (input, ctx, system) => {
      await assertLinearRegexConfig(input.regex_config, 'regex_config');
      return App.parse({
        org_id: ctx.orgId,
        app_id: system._id,
        name: input.name,
        custom_app_id: input.custom_app_id,
        collector_application_id: newCollectorApplicationId(),
        time_zone: assertTimeZone(input.time_zone ?? 'UTC'),
        week_starts_on: input.week_starts_on ?? 0,
        settings: AppSettings.parse(settingsOf(input)),
        created_at: system.created_at,
        modified_at: system.modified_at,
      });
    },
    applyUpdate: async (current, input) => {
      await assertLinearRegexConfig(input.regex_config, 'regex_config');
      const app = App.parse(current);
      const next = {
        ...app,
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.custom_app_id === undefined ? {} : { custom_app_id: input.custom_app_id }),
        ...(input.time_zone === undefined ? {} : { time_zone: assertTimeZone(input.time_zone) }),
        ...(input.week_starts_on === undefined ? {} : { week_starts_on: input.week_starts_on }),
        settings: { ...app.settings, ...settingsOf(input) },
      };
      // Attributes other writers keep on the item (e.g. the refresher's hash) survive the update.
      return { ...current, ...App.parse(next) };
    },
    present: appDocument,
    createExtra: (stored, ctx) => [
      deps.store.putIfAbsentItem({ ...collectorKeyKey(String(stored.collector_application_id)), org_id: ctx.orgId, app_id: stored.app_id }),
    ],
    // The marker makes the purge of the app's partition (app-purge.ts) survive a crash right after this.
    deleteExtra: (current, ctx) => [
      deps.store.deleteItem(collectorKeyKey(String(current.collector_application_id))),
      ...purger.markerItems(ctx.orgId, String(current.app_id), new Date(ctx.now)),
    ],
    onChange: async (ctx, stored, change) => {
      deps.apps.forget(String(stored.collector_application_id), { orgId: ctx.orgId, appId: String(stored.app_id) });
      // The retention pass walks a registry, not every org: a deleted app leaves it, as does one that keeps everything.
      await deps.retention?.track(ctx.orgId, String(stored.app_id), change === 'delete' ? null : App.parse(stored).settings.data_retention_days);
      // Sampling, time zone and week start feed the SDK config of that app; route templates, the consumer.
      if (change === 'update') await deps.onGovernanceChange?.(ctx.orgId, String(stored.app_id));
      if (change === 'delete') await purgeDeletedApp(purger, ctx.orgId, String(stored.app_id));
    },
  };
}

/**
 * The deleted app's items, up to INLINE_PURGE_ITEMS before answering. The app is already gone (410)
 * and its marker is stored, so a failure here is logged, not answered: the scheduled refresh resumes.
 */
async function purgeDeletedApp(purger: AppPurger, orgId: string, appId: string, log: (line: string) => void = console.error): Promise<void> {
  try {
    const result = await purger.purge(orgId, appId, INLINE_PURGE_ITEMS);
    if (!result.done) log(JSON.stringify({ message: 'deleted app purge continues on the schedule', ...result }));
  } catch (error) {
    log(
      JSON.stringify({
        message: 'deleted app purge failed; the schedule resumes it',
        org_id: orgId,
        app_id: appId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

export function appOperations(deps: ResourceDeps): ResourceOperationTable {
  return namedOperations('apps', crudOperations(appKind(deps), deps));
}
