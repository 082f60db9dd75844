/**
 * A software passkey authenticator for API tests: what a browser and a platform authenticator
 * together answer to navigator.credentials.create and .get, made without either. Each credential
 * is an ES256 (P-256) key of node:crypto; registration answers a 'none' attestation (CBOR by
 * @simplewebauthn/server's own encoder), assertions are signed over authenticatorData and the
 * hash of clientDataJSON as the WebAuthn spec says. Resident (discoverable) credentials with user
 * verification, a signature counter that grows by one per assertion unless told otherwise.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  rpID: string;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** flags of authenticatorData: user present, user verified, attested credential data */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `origin`: the page the browser would be on (clientDataJSON.origin). */
  constructor(readonly origin: string) {}

  /** navigator.credentials.create: a new resident credential and its 'none' attestation. */
  register(options: CreationOptions, opts: { origin?: string; rpID?: string } = {}) {
    const rpID = opts.rpID ?? options.rp.id ?? new URL(this.origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => excluded.has(c.id))) {
      throw new Error('InvalidStateError: this authenticator already holds a credential');
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x as string)],
      [-3, isoBase64URL.toBuffer(jwk.y as string)],
    ]);
    const credentialLength = Buffer.alloc(2);
    credentialLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpID),
      Buffer.from([UP | UV | AT]),
      u32(0),
      Buffer.alloc(16), // AAGUID: none
      credentialLength,
      id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: opts.origin ?? this.origin,
      crossOrigin: false,
    });
    const credential: SoftCredential = {
      id: b64(id),
      privateKey,
      rpID,
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(credential);
    return {
      credential,
      response: {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key' as const,
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64(Buffer.from(clientDataJSON)),
          attestationObject: b64(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /**
   * navigator.credentials.get: an assertion by the first allowed credential this authenticator
   * holds (or `credential`), its counter one up unless `counter` says what to report.
   */
  assert(
    options: RequestOptions,
    opts: {
      origin?: string;
      credential?: SoftCredential;
      counter?: number;
      userVerified?: boolean;
      userHandle?: string;
    } = {},
  ) {
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential =
      opts.credential ??
      this.credentials.find((c) => allowed.size === 0 || allowed.has(c.id)) ??
      null;
    if (!credential) throw new Error('NotAllowedError: no credential for these options');
    credential.counter = opts.counter ?? credential.counter + 1;
    const authData = Buffer.concat([
      sha256(options.rpId ?? credential.rpID),
      Buffer.from([UP | (opts.userVerified === false ? 0 : UV)]),
      u32(credential.counter),
    ]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: opts.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: opts.userHandle ?? credential.userHandle,
      },
    };
  }
}
