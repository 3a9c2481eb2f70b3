import { generateKeyPairSync } from 'node:crypto';
import {
  AssertionRejected,
  assertionCredential,
  bodySha256,
  createAssertionVerifier,
  parseVerificationKey,
} from '../../api/genomics/dashboardAssertion/verifier';
import { assertionKeyPair, signAssertion } from '../helpers/keys';

const { privateKey, publicKeyPem } = assertionKeyPair();
const verifier = createAssertionVerifier(publicKeyPem)!;
const request = { method: 'POST', path: '/api/v1/keys?x=1', body: '{"a":1}' };
const target = { method: 'POST', target: '/api/v1/keys?x=1' };
const member = { sub: 'idp|rui', role: 'REVIEWER' as const, scopes: ['read' as const] };
const nowSeconds = Math.floor(Date.now() / 1000);

const rejection = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AssertionRejected);
    return (error as AssertionRejected).why;
  }
  throw new Error('expected a rejection');
};

describe('dashboard assertion verification', () => {
  it('accepts a fresh assertion bound to this method and target and returns its claims', async () => {
    const jws = await signAssertion(privateKey, request, { ...member, jti: 'jti-unit-0000000001' });
    const verified = await verifier.verify(jws, target);
    expect(verified).toMatchObject({
      jti: 'jti-unit-0000000001',
      identityId: 'idp|rui',
      role: 'REVIEWER',
      scopes: ['read'],
      method: 'POST',
      path: '/api/v1/keys?x=1',
      bodySha256: bodySha256('{"a":1}'),
    });
  });

  it('refuses another method, another path or another query string', async () => {
    const jws = await signAssertion(privateKey, request, member);
    expect(await rejection(verifier.verify(jws, { ...target, method: 'PUT' }))).toMatch(/method/);
    expect(await rejection(verifier.verify(jws, { ...target, target: '/api/v1/keys' }))).toMatch(/path/);
    expect(await rejection(verifier.verify(jws, { ...target, target: '/api/v1/keys?x=2' }))).toMatch(/path/);
  });

  it('refuses a tampered payload or signature and a key it was not signed with', async () => {
    const jws = await signAssertion(privateKey, request, member);
    const [header, payload, signature] = jws.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'ADMIN' }),
    ).toString('base64url');
    await rejection(verifier.verify(`${header}.${forged}.${signature}`, target));
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    await rejection(verifier.verify(`${header}.${payload}.${flipped}`, target));
    const other = assertionKeyPair();
    await rejection(verifier.verify(await signAssertion(other.privateKey, request, member), target));
  });

  it('refuses an expired assertion, one issued in the future and one living longer than 60 s', async () => {
    const expired = await signAssertion(privateKey, request, { ...member, iat: nowSeconds - 120 });
    expect(await rejection(verifier.verify(expired, target))).toMatch(/exp/);
    const future = await signAssertion(privateKey, request, { ...member, iat: nowSeconds + 30 });
    await rejection(verifier.verify(future, target));
    const long = await signAssertion(privateKey, request, { ...member, lifetimeSeconds: 61 });
    expect(await rejection(verifier.verify(long, target))).toMatch(/lifetime/);
    const longest = await signAssertion(privateKey, request, { ...member, lifetimeSeconds: 60 });
    await expect(verifier.verify(longest, target)).resolves.toBeDefined();
  });

  it('tolerates 5 s of clock skew and no more', async () => {
    const jws = await signAssertion(privateKey, request, { ...member, iat: nowSeconds, lifetimeSeconds: 10 });
    await expect(verifier.verify(jws, target, new Date((nowSeconds + 14) * 1000))).resolves.toBeDefined();
    await rejection(verifier.verify(jws, target, new Date((nowSeconds + 16) * 1000)));
    await expect(verifier.verify(jws, target, new Date((nowSeconds - 4) * 1000))).resolves.toBeDefined();
    await rejection(verifier.verify(jws, target, new Date((nowSeconds - 7) * 1000)));
  });

  it('refuses another JWT type or audience, unknown claims, a bad role and an unknown scope', async () => {
    await rejection(
      verifier.verify(await signAssertion(privateKey, request, { ...member, typ: 'JWT' }), target),
    );
    await rejection(
      verifier.verify(await signAssertion(privateKey, request, { ...member, aud: 'referee-math' }), target),
    );
    const extra = { ...member, extraClaims: { identity_override: 'idp|ada' } };
    expect(await rejection(verifier.verify(await signAssertion(privateKey, request, extra), target))).toMatch(
      /claims/,
    );
    const badRole = { ...member, role: 'ROOT' as never };
    await rejection(verifier.verify(await signAssertion(privateKey, request, badRole), target));
    const badScope = { ...member, scopes: ['admin:all' as never] };
    await rejection(verifier.verify(await signAssertion(privateKey, request, badScope), target));
    await rejection(verifier.verify('not.a.jws', target));
  });

  it('accepts HS256 with a shared secret of at least 32 characters, and only HS256 then', async () => {
    const secret = 'a-shared-dashboard-secret-of-40-chars!!!';
    const hmac = createAssertionVerifier(secret)!;
    const jws = await signAssertion(new TextEncoder().encode(secret), request, member);
    await expect(hmac.verify(jws, target)).resolves.toMatchObject({ identityId: 'idp|rui' });
    await rejection(hmac.verify(await signAssertion(privateKey, request, member), target));
    await rejection(verifier.verify(jws, target));
  });
});

describe('assertion configuration and header', () => {
  it('is disabled without a key and refuses weak or non-Ed25519 keys at start', () => {
    expect(createAssertionVerifier(undefined)).toBeNull();
    expect(() => parseVerificationKey('too-short')).toThrow(/32 characters/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => parseVerificationKey(rsa.toString())).toThrow(/Ed25519/);
    expect(parseVerificationKey(publicKeyPem.replace(/\n/g, '\\n')).algorithms).toContain('EdDSA');
  });

  it('reads only the Assertion scheme of the Authorization header', () => {
    expect(assertionCredential('Assertion abc.def.ghi')).toBe('abc.def.ghi');
    expect(assertionCredential('assertion abc.def.ghi')).toBe('abc.def.ghi');
    expect(assertionCredential('Bearer abc.def.ghi')).toBeNull();
    expect(assertionCredential(undefined)).toBeNull();
  });
});
