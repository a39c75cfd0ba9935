import { COMPANIES, SUBSCRIPTIONS, USERS } from '../fixtures';
import type { ConformanceCase } from '../types';

/** Users, companies and subscriptions: no time window, default order `_id` ascending. */

export const PROFILE_CASES: readonly ConformanceCase[] = [
  {
    name: 'users: default order is _id ascending',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: {},
    expect: { total: 4, ids: ['u-alice', 'u-bob', 'u-carol', 'u-dave'] },
  },
  {
    name: 'users: search by exact email',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { query: { term: { 'metadata.email.raw': 'bob@example.com' } }, _source: { excludes: ['org_id', 'app_id'] } },
    expect: {
      total: 1,
      hits: [
        {
          _id: 'u-bob',
          _source: {
            user_id: 'u-bob',
            company_id: 'c-acme',
            first_name: 'Bob',
            name: 'Bob Builder',
            created_at: '2026-01-15T12:00:00.000Z',
            metadata: { email: 'bob@example.com', plan: 'free', seats: 1 },
          },
        },
      ],
    },
  },
  {
    name: 'users: match on a name',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { query: { match: { name: 'LIDDELL' } }, _source: ['first_name'] },
    expect: { total: 1, hits: [{ _id: 'u-alice', _source: { first_name: 'Alice' } }] },
  },
  {
    name: 'users: range on created_at',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { query: { range: { created_at: { gte: '2026-01-01' } } } },
    expect: { total: 2, ids: ['u-bob', 'u-carol'] },
  },
  {
    name: 'users: created in the last 30 days, rounded to the day',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { query: { range: { created_at: { gte: 'now-30d/d' } } } },
    expect: { total: 1, ids: ['u-carol'] },
  },
  {
    name: 'users: seats per company, the profile without a company left out',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { size: 0, aggs: { companies: { terms: { field: 'company_id' }, aggs: { seats: { sum: { field: 'metadata.seats' } } } } } },
    expect: {
      total: 4,
      aggregations: {
        companies: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'c-acme', doc_count: 2, seats: { value: 6 } },
            { key: 'c-globex', doc_count: 1, seats: { value: 12 } },
          ],
        },
      },
    },
  },
  {
    name: 'users: paging by _id yields each user once',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { size: 1, sort: [{ _id: 'asc' }] },
    expect: { pages: { ids: ['u-alice', 'u-bob', 'u-carol', 'u-dave'] } },
  },
  {
    name: 'users: sort by a date, missing last',
    area: 'profiles',
    kind: 'users',
    documents: USERS,
    body: { sort: [{ created_at: 'desc' }] },
    expect: { total: 4, ids: ['u-carol', 'u-bob', 'u-alice', 'u-dave'] },
  },
  {
    name: 'companies: terms on a .raw text field, ordered by a sum',
    area: 'profiles',
    kind: 'companies',
    documents: COMPANIES,
    body: {
      size: 0,
      aggs: {
        industries: { terms: { field: 'metadata.industry.raw', order: { people: 'desc' } }, aggs: { people: { sum: { field: 'metadata.employees' } } } },
      },
    },
    expect: {
      total: 3,
      aggregations: {
        industries: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'Energy', doc_count: 1, people: { value: 4000 } },
            { key: 'Retail', doc_count: 2, people: { value: 150 } },
          ],
        },
      },
    },
  },
  {
    name: 'companies: prefix on company_id',
    area: 'profiles',
    kind: 'companies',
    documents: COMPANIES,
    body: { query: { prefix: { company_id: 'c-g' } } },
    expect: { total: 1, ids: ['c-globex'] },
  },
  {
    name: 'subscriptions: periods ending from now on',
    area: 'profiles',
    kind: 'subscriptions',
    documents: SUBSCRIPTIONS,
    body: { query: { range: { current_period_end: { gte: 'now' } } } },
    expect: { total: 2, ids: ['s-1', 's-3'] },
  },
  {
    name: 'subscriptions: status is a text field with .raw',
    area: 'profiles',
    kind: 'subscriptions',
    documents: SUBSCRIPTIONS,
    body: { query: { bool: { must_not: [{ term: { 'status.raw': 'cancelled' } }] } }, size: 0, aggs: { statuses: { terms: { field: 'status.raw' } } } },
    expect: {
      total: 2,
      ids: [],
      aggregations: {
        statuses: {
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: 0,
          buckets: [
            { key: 'active', doc_count: 1 },
            { key: 'trialing', doc_count: 1 },
          ],
        },
      },
    },
  },
];
