import { describe, expect, it } from 'vitest';
import { deliveryFormSchema, maskSecret, serverFieldOf, toBody } from './delivery-form';

const values = (
  webhook: Partial<{ url: string; authHeader: string; enabled: boolean }>,
  remove = false,
) => ({
  email: { enabled: true },
  webhook: { url: '', authHeader: '', enabled: false, ...webhook },
  removeAuthHeader: remove,
});

describe('delivery settings form', () => {
  it('sends an empty URL as none, and keeps the stored header when none is typed', () => {
    const parsed = deliveryFormSchema.parse(values({ url: '  ' }));
    expect(toBody(parsed, true)).toEqual({
      email: { enabled: true },
      webhook: { url: null, enabled: false },
    });
  });

  it('sends a typed header, and null to remove the stored one', () => {
    const typed = deliveryFormSchema.parse(
      values({ url: 'https://crm.example/hook', authHeader: 'Bearer x', enabled: true }),
    );
    expect(toBody(typed, true).webhook).toEqual({
      url: 'https://crm.example/hook',
      enabled: true,
      authHeader: 'Bearer x',
    });
    const removed = deliveryFormSchema.parse(values({ url: 'https://crm.example/hook' }, true));
    expect(toBody(removed, true).webhook?.authHeader).toBeNull();
  });

  it('leaves the webhook out when the package has no CRM integration', () => {
    const parsed = deliveryFormSchema.parse(values({ url: 'https://crm.example/hook' }));
    expect(toBody(parsed, false)).toEqual({ email: { enabled: true } });
  });

  it('refuses a URL that is not http(s), and enabling without one', () => {
    const bad = deliveryFormSchema.safeParse(values({ url: 'ftp://x' }));
    expect(bad.success).toBe(false);
    const none = deliveryFormSchema.safeParse(values({ enabled: true }));
    expect(none.error?.issues[0]?.path).toEqual(['webhook', 'url']);
  });

  it('reads a server issue by its path or its last part', () => {
    expect(serverFieldOf('webhook.url')).toBe('webhook.url');
    expect(serverFieldOf('url')).toBe('webhook.url');
    expect(serverFieldOf('authHeader')).toBe('webhook.authHeader');
    expect(serverFieldOf('email')).toBeUndefined();
  });

  it('masks the secret but its prefix', () => {
    expect(maskSecret('whsec_abc')).toMatch(/^whsec_•+$/);
  });
});
