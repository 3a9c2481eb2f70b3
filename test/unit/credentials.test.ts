import { bearerToken, hashSecret, mintToken, parseToken, secretMatches } from '../../access/credentials';

describe('API key tokens', () => {
  it('round-trips the key id and names the service in the prefix', () => {
    const minted = mintToken('math');
    expect(minted.token.startsWith('rfm_')).toBe(true);
    const parsed = parseToken(minted.token);
    expect(parsed).toMatchObject({ service: 'math', keyId: minted.keyId });
    expect(secretMatches(parsed!.secret, minted.secretHash)).toBe(true);
    expect(parseToken(mintToken('genomics').token)?.service).toBe('genomics');
  });

  it('carries 256 bits of secret and never the same token twice', () => {
    const a = mintToken('genomics');
    const b = mintToken('genomics');
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(parseToken(a.token)!.secret, 'base64url')).toHaveLength(32);
  });

  it('stores only a hash that does not contain the secret', () => {
    const minted = mintToken('math');
    const secret = parseToken(minted.token)!.secret;
    expect(minted.secretHash.toString('hex')).not.toContain(Buffer.from(secret).toString('hex'));
    expect(minted.secretHash.equals(hashSecret(secret))).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}A`, minted.secretHash)).toBe(secret.endsWith('A'));
  });

  it('rejects anything that is not a well-formed token', () => {
    for (const bad of [
      '',
      'rfm_',
      'rfx_0123456789abcdef0123456789abcdef_' + 'a'.repeat(43),
      'Bearer x',
      mintToken('math').token + 'x',
    ]) {
      expect(parseToken(bad)).toBeNull();
    }
  });

  it('reads only Bearer credentials', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
