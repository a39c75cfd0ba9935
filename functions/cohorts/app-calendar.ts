import type { TenantScope } from '../search/port';

/** How an app reckons calendar periods: its time zone and first day of the week (0 Sunday … 6 Saturday). */
export interface CalendarOfApp {
  readonly timeZone: string;
  readonly weekStartsOn: number;
}

/** Reads an app's calendar settings (the app store, wired at the composition root); undefined for an unknown app. */
export type AppCalendar = (scope: TenantScope) => Promise<CalendarOfApp | undefined>;
