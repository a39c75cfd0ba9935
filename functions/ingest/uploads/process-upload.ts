import type { AppStore } from '../../organisations/app-store';
import { errorBody } from '../../shared/http/error-response';
import { isServiceError, ServiceUnavailableError } from '../../shared/errors';
import { decodeBody, parseJsonText } from '../../shared/http/body';
import { assertNoReservedMembers, mayHoldReservedMembers } from '../../shared/http/reserved-members';
import { COLLECTOR_BODY_RULES } from '../collector/collect';
import { collect } from '../collector/collect';
import { MAX_BATCH_BYTES } from '../collector/request-limits';
import type { RecordPublisher } from '../stream/publisher';
import { parseIncomingKey, type UploadResult, type UploadStore } from './upload-store';

export interface UploadProcessorDeps {
  readonly apps: AppStore;
  readonly uploads: UploadStore;
  readonly publisher: RecordPublisher;
  readonly now: () => Date;
}

/**
 * Processes one uploaded batch exactly like POST /v1/<kind>/batch would, and records the outcome.
 * Bad input is a final 'rejected' result; a stream outage throws so the invocation is retried.
 */
export async function processUpload(deps: UploadProcessorDeps, key: string): Promise<UploadResult | undefined> {
  const target = parseIncomingKey(key);
  if (!target) return undefined; // not an upload (e.g. a result object): nothing to do
  const base = { upload_id: target.uploadId, kind: target.kind };
  const app = await deps.apps.getApp(target.orgId, target.appId);
  if (!app) return undefined; // the app was deleted since the URL was issued

  let result: UploadResult;
  try {
    const raw = await deps.uploads.readUpload(key, MAX_BATCH_BYTES);
    const gzip = raw[0] === 0x1f && raw[1] === 0x8b;
    const text = (gzip ? decodeBody(raw, 'gzip', MAX_BATCH_BYTES) : decodeBody(raw, undefined, MAX_BATCH_BYTES)).toString('utf8');
    const body = parseJsonText(text);
    if (mayHoldReservedMembers(text, COLLECTOR_BODY_RULES)) assertNoReservedMembers(body, COLLECTOR_BODY_RULES);
    const { accepted } = await collect(deps.publisher, { app, kind: target.kind, batch: true, body, receivedAt: deps.now(), sourceIp: '' });
    result = { ...base, status: 'accepted', accepted, processed_at: deps.now().toISOString() };
  } catch (error) {
    if (!isServiceError(error) || error instanceof ServiceUnavailableError) throw error;
    result = {
      ...base,
      status: 'rejected',
      error: errorBody(error.status, error.code, error.message, error.details).error,
      processed_at: deps.now().toISOString(),
    };
  }
  await deps.uploads.writeResult(target.orgId, target.appId, result);
  return result;
}
