import type { components } from './api-schema';

/**
 * The data shapes of the management API's OpenAPI document (generated into api-schema.ts), by their
 * component names: `ApiSchema<'FunnelBody'>` is the body a funnel request takes.
 */
export type ApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];
