import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** API Gateway HTTP API (payload v2) event and result: the Lambda contract on AWS and locally. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** A request as operations see it: decoded, routed, header names lower-cased. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The raw body bytes (already base64-decoded, still content-encoded). */
  readonly rawBody: Buffer;
  readonly sourceIp: string;
  readonly receivedAt: Date;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
