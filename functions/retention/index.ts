/** Per-app data retention: the registry of apps that set one, and the pass that applies it. */
export { DataRetention, type DataRetentionDeps, type RetentionOutcome, type RetentionPass } from './data-retention';
export { RetainingApps } from './retaining-apps';
export { retentionCutoff } from './retention-cutoff';
