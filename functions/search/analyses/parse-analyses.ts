import { FunnelBody, RetentionBody } from '../../../schemas/event-analyses';
import { ValidationError } from '../../shared/errors';
import { parseFixedInterval } from '../dates/intervals';
import { Query } from '../dsl';
import { parseWith } from '../dsl/request';
import type { FunnelQuery, RetentionQuery } from './analysis-queries';

/** The longest conversion window: a year (and a day, for leap years). */
export const MAX_CONVERSION_WINDOW_MS = 366 * 86_400_000;

/** A funnel body (schemas/event-analyses.ts) as the port takes it; 400 naming each refused member. */
export function parseFunnelBody(body: unknown): FunnelQuery {
  const parsed = parseWith(FunnelBody, body, 'funnel', []);
  const windowMs = parseFixedInterval(parsed.conversion_window, 'conversion_window');
  if (windowMs <= 0 || windowMs > MAX_CONVERSION_WINDOW_MS) {
    throw new ValidationError('Invalid funnel: conversion_window is out of range', [
      { field: 'conversion_window', reason: 'must be more than 0 and at most 366d' },
    ]);
  }
  return {
    steps: parsed.steps.map((step, k) => ({ name: step.name ?? `Step ${k + 1}`, query: parseWith(Query, step.query, 'funnel', ['steps', k, 'query']) })),
    by: parsed.by,
    windowMs,
  };
}

/** A retention body as the port takes it; 400 naming each refused member. */
export function parseRetentionBody(body: unknown): RetentionQuery {
  const parsed = parseWith(RetentionBody, body, 'retention', []);
  return {
    first: parseWith(Query, parsed.first_event, 'retention', ['first_event']),
    returning: parseWith(Query, parsed.return_event, 'retention', ['return_event']),
    by: parsed.by,
    interval: parsed.interval,
    periods: parsed.periods,
  };
}
