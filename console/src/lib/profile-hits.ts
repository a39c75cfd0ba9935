import { objectOf, textOf, type StoredHit } from './json-object';

/** A user or company profile as the search API returns it: the merged document the SDKs sent. */
export interface ProfileSource {
  readonly user_id?: string | undefined;
  readonly company_id?: string | undefined;
  readonly campaign?: Record<string, unknown> | undefined;
  readonly metadata?: Record<string, unknown> | undefined;
  readonly created_at?: string | undefined;
  readonly updated_at?: string | undefined;
  readonly [field: string]: unknown;
}

export interface ProfileHit {
  readonly _id: string;
  readonly _source: ProfileSource;
  readonly sort?: readonly unknown[];
}

/** A profile hit as the console reads it: the stored document, with each field it shows checked for its type. */
export function profileHitOf(hit: StoredHit): ProfileHit {
  const source = hit._source ?? {};
  return {
    _id: hit._id,
    ...(hit.sort ? { sort: hit.sort } : {}),
    _source: {
      ...source,
      user_id: textOf(source['user_id']),
      company_id: textOf(source['company_id']),
      campaign: objectOf(source['campaign']),
      metadata: objectOf(source['metadata']),
      created_at: textOf(source['created_at']),
      updated_at: textOf(source['updated_at']),
    },
  };
}
