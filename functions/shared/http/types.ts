import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** API Gateway HTTP API (payload v2) event and result: the Lambda contract on AWS and locally. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** A request as operations see it: decoded, routed, header names lower-cased. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Request cookies by name (API Gateway passes them apart from the headers, in `event.cookies`). */
  readonly cookies: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The raw body bytes (already base64-decoded, still content-encoded); decoded on first use. */
  readonly rawBody: Buffer;
  /** The body as the event carried it, when it was text (not base64): parsed without a byte round trip. */
  readonly bodyText?: string;
  readonly sourceIp: string;
  readonly receivedAt: Date;
  /** Aborts when the caller hangs up before its answer (the local runtime; API Gateway does not tell a Lambda). */
  readonly disconnected?: AbortSignal;
}

/** What a runtime hands a handler beside the event: locally, the caller's connection. */
export interface HandlerContext {
  readonly disconnected?: AbortSignal;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Set-Cookie values (API Gateway sends each as its own header). */
  cookies?: string[];
}
