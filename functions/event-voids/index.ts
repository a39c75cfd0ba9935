/** Voiding events with an audit trail (docs/event-voids.md). */
export { voidOperations } from './void-operations';
export type { VoidDeps } from './void-events';
export type { ReplaceDeps, ReplacementIntake, ReplacementKind } from './replace-events';
