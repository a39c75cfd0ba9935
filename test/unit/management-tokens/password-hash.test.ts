import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../../functions/organisations/password-hash';

describe('password hashing (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');
    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('stores the parameters with a random salt, never the password', async () => {
    const a = await hashPassword('same password here');
    const b = await hashPassword('same password here');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same password');
  });

  it('verifies with the parameters stored in the hash, not the current defaults', async () => {
    const cheap = await hashPassword('legacy password 1', { N: 1024, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(verifyPassword('legacy password 1', cheap)).resolves.toBe(true);
  });

  it('treats malformed stored values as a mismatch', async () => {
    for (const stored of ['', 'plain', 'scrypt$x$8$1$aa$bb', 'bcrypt$1$2$3$aa$bb', 'scrypt$1024$8$1$aa$']) {
      await expect(verifyPassword('anything at all', stored)).resolves.toBe(false);
    }
  });

  it('spends a verification on unknown users and always says no', async () => {
    await expect(verifyAgainstDummy('whatever password')).resolves.toBe(false);
  });
});
