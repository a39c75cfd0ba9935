import { ApiError } from './api-error';
import { linkRefusedText } from './link-refused';

const refused = (reason: string) => new ApiError(401, 'unauthorized', `The customer token ${reason}`, [{ field: 'token', reason }]);

describe("a refused link's message", () => {
  it('says which of expired, revoked or altered the API found', () => {
    expect(linkRefusedText(refused('has expired'))).toContain('expired');
    expect(linkRefusedText(refused('has been revoked'))).toContain('revoked');
    for (const reason of ['has an invalid signature', 'has malformed claims', 'is not a customer token']) {
      const text = linkRefusedText(refused(reason));
      expect(text).toContain('not valid');
      expect(text).not.toContain('expired');
      expect(text).not.toContain('revoked');
    }
    expect(linkRefusedText(new ApiError(404, 'not_found', 'gone'))).toContain('no longer shared');
  });
});
