/** An event as the search API returns it (`_source`), with the fields the console shows. */
export interface EventSource {
  readonly event_type?: 'api_call' | 'action';
  readonly action_name?: string;
  readonly request?: {
    readonly time?: string;
    readonly uri?: string;
    readonly verb?: string;
    readonly route?: string;
    readonly ip_address?: string;
    readonly headers?: Record<string, unknown>;
    readonly body?: unknown;
    readonly transfer_encoding?: string;
    /** The SDK sent only the start of the body. */
    readonly body_truncated?: boolean;
  };
  readonly response?: {
    readonly time?: string;
    readonly status?: number;
    readonly headers?: Record<string, unknown>;
    readonly body?: unknown;
    readonly transfer_encoding?: string;
    readonly body_truncated?: boolean;
  };
  readonly user_id?: string;
  readonly company_id?: string;
  readonly session_token?: string;
  readonly duration_ms?: number;
  readonly metadata?: Record<string, unknown>;
  readonly [field: string]: unknown;
}

export interface EventHit {
  readonly _id: string;
  readonly _source: EventSource;
  readonly sort?: readonly unknown[];
}
