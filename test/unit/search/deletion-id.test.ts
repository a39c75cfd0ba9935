import * as fc from 'fast-check';
import { signDeletionId, taskOfDeletionId } from '../../../functions/search/deletion-id';

const key = Buffer.alloc(32, 7);
const app = { org_id: 'org_1', app_id: 'app_1' };

describe('deletion ids', () => {
  it('give the task back to the tenant that started it, and to no other', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), (task) => {
        const id = signDeletionId(key, app, task);
        expect(taskOfDeletionId(key, app, id)).toBe(task);
        expect(taskOfDeletionId(key, { ...app, app_id: 'app_2' }, id)).toBeUndefined();
        expect(taskOfDeletionId(key, { ...app, org_id: 'org_2' }, id)).toBeUndefined();
        expect(taskOfDeletionId(Buffer.alloc(32, 8), app, id)).toBeUndefined();
      }),
    );
  });

  it('refuse an altered payload or signature', () => {
    const id = signDeletionId(key, app, 'node:1');
    const [payload, signature] = id.split('.') as [string, string];
    const otherTask = Buffer.from(JSON.stringify({ t: 'node:2', o: app.org_id, a: app.app_id })).toString('base64url');
    expect(taskOfDeletionId(key, app, `${otherTask}.${signature}`)).toBeUndefined();
    expect(taskOfDeletionId(key, app, `${payload}.${signature.slice(1)}`)).toBeUndefined();
    expect(taskOfDeletionId(key, app, `${payload}`)).toBeUndefined();
    expect(taskOfDeletionId(key, app, `${id}.x`)).toBeUndefined();
  });
});
