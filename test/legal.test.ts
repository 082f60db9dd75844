import { describe, expect, it } from 'vitest';
import { LEGAL_PAGE_MAX_CHARS } from '../src/shared/contracts/legal';
import { Client, loginAdmin, registerAgent, setupTestApp } from './support/test-app';

const ctx = setupTestApp();

describe('the legal pages', () => {
  it('are empty until an admin writes them, then anyone reads the text as written', async () => {
    const anonymous = new Client(ctx.app);
    const unwritten = await anonymous.get('/api/legal/privacy');
    expect(unwritten.statusCode).toBe(200);
    expect(unwritten.json()).toEqual({
      page: 'privacy',
      title: 'Privacy Policy',
      body: '',
      updatedAt: null,
    });

    const admin = await loginAdmin(ctx);
    const text = 'We keep your data safe.\n\nWe never sell it.';
    const saved = await admin.client.put('/api/admin/legal/privacy', { body: `\n${text}\n\n` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ page: 'privacy', body: text });
    expect(Date.parse(saved.json().updatedAt)).toBeGreaterThan(Date.now() - 60_000);

    expect((await anonymous.get('/api/legal/privacy')).json()).toMatchObject({ body: text });
    // the other page is its own
    expect((await anonymous.get('/api/legal/terms')).json()).toMatchObject({
      title: 'Terms of Service',
    });

    // a second save replaces the text
    await admin.client.put('/api/admin/legal/privacy', { body: 'Version 2.' });
    expect((await anonymous.get('/api/legal/privacy')).json().body).toBe('Version 2.');
  });

  it('only admins write them; a page that does not exist and a text too long are refused', async () => {
    const admin = await loginAdmin(ctx);
    const agent = await registerAgent(ctx.app);
    await admin.client.put('/api/admin/legal/terms', { body: 'Original terms.' });

    const byAgent = await agent.client.put('/api/admin/legal/terms', { body: 'Mine now.' });
    expect(byAgent.statusCode).toBe(403);
    const byAnyone = await new Client(ctx.app).put('/api/admin/legal/terms', { body: 'Ours.' });
    expect(byAnyone.statusCode).toBe(401);

    expect((await admin.client.put('/api/admin/legal/cookies', { body: 'x' })).statusCode).toBe(
      400,
    );
    const tooLong = await admin.client.put('/api/admin/legal/terms', {
      body: 'x'.repeat(LEGAL_PAGE_MAX_CHARS + 1),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('at most 100000 characters');

    // nothing of the refused writes reached the page
    expect((await new Client(ctx.app).get('/api/legal/terms')).json().body).toBe('Original terms.');
  });
});
