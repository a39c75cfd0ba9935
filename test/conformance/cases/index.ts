import type { ConformanceCase } from '../types';
import { DATE_HISTOGRAM_CASES, DATE_QUERY_CASES, HISTOGRAM_CASES } from './dates';
import { FILTER_AGG_CASES, METRIC_CASES, NESTING_CASES, RANGE_AGG_CASES, TERMS_CASES } from './aggregations';
import { ARRAY_CASES, MISSING_CASES } from './arrays-missing';
import { ENRICHMENT_CASES } from './callers';
import { PROFILE_CASES } from './profiles';
import { BOOL_CASES, QUERY_CASES, QUERY_STRING_CASES } from './queries';
import { REJECTION_CASES } from './rejections';
import { PAGING_CASES, POST_FILTER_CASES, SORT_CASES, SOURCE_CASES, TOTAL_CASES, WINDOW_CASES } from './sorting';
import { TEXT_CASES } from './text';

/** Every conformance case, in a stable order. Names are unique (checked by the suite). */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...QUERY_CASES,
  ...BOOL_CASES,
  ...QUERY_STRING_CASES,
  ...TEXT_CASES,
  ...ARRAY_CASES,
  ...MISSING_CASES,
  ...DATE_QUERY_CASES,
  ...SORT_CASES,
  ...PAGING_CASES,
  ...TOTAL_CASES,
  ...SOURCE_CASES,
  ...WINDOW_CASES,
  ...POST_FILTER_CASES,
  ...TERMS_CASES,
  ...METRIC_CASES,
  ...RANGE_AGG_CASES,
  ...FILTER_AGG_CASES,
  ...NESTING_CASES,
  ...DATE_HISTOGRAM_CASES,
  ...HISTOGRAM_CASES,
  ...PROFILE_CASES,
  ...ENRICHMENT_CASES,
  ...REJECTION_CASES,
];
