import { describe, expect, it } from 'vitest';
import { AUDIT_BODY_MAX_CHARS, withoutSecrets } from './audit.service';
import { auditTarget } from './audit-hook';

describe('withoutSecrets', () => {
  it('keeps only text jsonb can store: a lone surrogate becomes U+FFFD, NUL goes, pairs stay', () => {
    expect(
      withoutSecrets({ email: '\udfffx', name: 'a\0b', emoji: 'ok \ud83d\ude00', ['\ud800k']: 1 }),
    ).toEqual({ email: '\ufffdx', name: 'ab', emoji: 'ok \ud83d\ude00', ['\ufffdk']: 1 });
  });

  it('redacts passwords, keys, tokens, secrets, headers, cards and codes at any depth', () => {
    expect(
      withoutSecrets({
        name: 'Acme',
        password: 'p',
        newPassword: 'n',
        currentPassword: 'c',
        token: 't',
        apiKey: 'k',
        key: 'k2',
        webhook: { url: 'https://x.example/', authHeader: 'Bearer s', secret: 'whsec_' },
        card: { number: '4242' },
        code: '123456',
        phones: ['+13055550123'],
      }),
    ).toEqual({
      name: 'Acme',
      password: '[redacted]',
      newPassword: '[redacted]',
      currentPassword: '[redacted]',
      token: '[redacted]',
      apiKey: '[redacted]',
      key: '[redacted]',
      webhook: { url: 'https://x.example/', authHeader: '[redacted]', secret: '[redacted]' },
      card: '[redacted]',
      code: '[redacted]',
      phones: ['+13055550123'],
    });
  });

  it('keeps a large body as its size only', () => {
    const body = { text: 'x'.repeat(AUDIT_BODY_MAX_CHARS) };
    expect(withoutSecrets(body)).toEqual({ omitted: 'too large', chars: expect.any(Number) });
    expect(withoutSecrets(undefined)).toBeNull();
  });
});

describe('auditTarget', () => {
  it('names the last parameter and the segment before it, else the answer, else the last segment', () => {
    expect(
      auditTarget('/api/admin/sources/:id/keys/:keyId', { id: '3', keyId: '9' }, null),
    ).toEqual({ targetType: 'key', targetId: '9' });
    expect(auditTarget('/api/admin/agents/:id/approval', { id: 5 }, null)).toEqual({
      targetType: 'agent',
      targetId: '5',
    });
    expect(auditTarget('/api/admin/agencies/:id', { id: 2 }, null)).toEqual({
      targetType: 'agency',
      targetId: '2',
    });
    expect(auditTarget('/api/admin/packages', {}, { id: 12, name: 'Gold' })).toEqual({
      targetType: 'package',
      targetId: '12',
    });
    expect(auditTarget('/api/admin/assignment/run', {}, { runId: 4 })).toEqual({
      targetType: 'run',
      targetId: null,
    });
  });
});
