export { openCallerEnricher, withCallerFields, callerFieldsOf, type CallerEnricher } from './caller-fields';
export { defaultGeographyDatabase, geographyOfRecord, type IpGeography } from './ip-geography';
export type { UserAgentClient } from './user-agent-client';
