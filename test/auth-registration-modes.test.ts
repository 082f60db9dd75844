/**
 * Who may sign up (docs/domain.md, Accounts): REGISTRATION=open (anyone, at work at once),
 * approval (PENDING until an admin approves: signs in, sees only "Waiting for approval", gets no
 * lead; refused: cannot log in), invite (only with an admin's invite link, used once, 7 days).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/server/db/client';
import { createPackage, insertLeads, subscribe } from './support/admin-fixtures';
import { Client, loginAdmin, setupTestApp, uniqueEmail } from './support/test-app';

const open = setupTestApp();
const approval = setupTestApp({ REGISTRATION: 'approval' });
const invite = setupTestApp({ REGISTRATION: 'invite', PUBLIC_URL: 'https://portal.example.com' });

type Ctx = typeof open;
const PASSWORD = 'plum-tree-41';

async function signUp(ctx: Ctx, body: Record<string, unknown> = {}) {
  const client = new Client(ctx.app);
  const email = uniqueEmail('mode');
  const res = await client.post('/api/auth/register', {
    name: 'Mode Agent',
    email,
    password: PASSWORD,
    ...body,
  });
  return { client, email, res };
}

async function signUpAndIn(ctx: Ctx) {
  const { client, email, res } = await signUp(ctx);
  expect(res.statusCode).toBe(201);
  const login = await client.post('/api/auth/login', { email, password: PASSWORD });
  expect(login.statusCode).toBe(200);
  return { client, email, id: res.json().user.id as number };
}

describe('REGISTRATION=open (the default)', () => {
  it('an agent signs up and works at once', async () => {
    expect((await new Client(open.app).get('/api/auth/registration')).json()).toEqual({
      mode: 'open',
    });
    const agent = await signUpAndIn(open);
    expect((await agent.client.get('/api/auth/me')).json().approval).toBe('APPROVED');
    expect((await agent.client.get('/api/agent/stats')).statusCode).toBe(200);
  });
});

describe("an agency's invite link in the other modes", () => {
  it('open: the new account is a member at once; approval: a member waiting for approval', async () => {
    for (const ctx of [open, approval]) {
      const boss = await signUp(ctx);
      expect(boss.res.statusCode).toBe(201);
      if (ctx === approval) {
        const admin = await loginAdmin(approval);
        await admin.client.post(`/api/admin/agents/${boss.res.json().user.id}/approval`, {
          approve: true,
        });
      }
      await boss.client.post('/api/auth/login', { email: boss.email, password: PASSWORD });
      expect((await boss.client.post('/api/agency', { name: 'Mode Agency' })).statusCode).toBe(201);
      const code = (await boss.client.post('/api/agency/invites', { role: 'AGENT' })).json()
        .code as string;
      const joined = await signUp(ctx, { agencyInvite: code });
      expect(joined.res.statusCode).toBe(201);
      expect(joined.res.json().user.approval).toBe(ctx === approval ? 'PENDING' : 'APPROVED');
      const members = (await boss.client.get('/api/agency/members')).json();
      expect(JSON.stringify(members)).toContain(joined.email);
    }
  });
});

describe('REGISTRATION=approval', () => {
  it('a new agent is PENDING: signs in, every agent route answers 403 saying why', async () => {
    expect((await new Client(approval.app).get('/api/auth/registration')).json()).toEqual({
      mode: 'approval',
    });
    const agent = await signUpAndIn(approval);
    expect((await agent.client.get('/api/auth/me')).json()).toMatchObject({
      role: 'AGENT',
      approval: 'PENDING',
    });
    for (const url of ['/api/agent/stats', '/api/agent/leads', '/api/agent/preferences']) {
      const res = await agent.client.get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: "Your account is waiting for an admin's approval" });
    }
  });

  it('admins list the agents waiting, and approving one lets them work and get leads', async () => {
    const agent = await signUpAndIn(approval);
    const admin = await loginAdmin(approval);
    const pending = (await admin.client.get('/api/admin/agents?approval=PENDING')).json();
    expect(pending.map((a: { id: number }) => a.id)).toContain(agent.id);
    expect(pending.every((a: { approval: string }) => a.approval === 'PENDING')).toBe(true);

    // an ACTIVE subscription and a lead that fits: still no lead while PENDING
    const pkg = await createPackage(approval, { category: 'MEDICARE', leadsPerDay: 5 });
    await subscribe(approval, agent.id, pkg.id);
    const [lead] = await insertLeads(approval, [{ state: 'TX', city: 'Austin' }]);
    await admin.client.post('/api/admin/assignment/run');
    const agentOf = async () => {
      const [row] = await queryRows<{ agentId: number | null }>(
        approval.database.db,
        sql`select agent_id as "agentId" from leads where id = ${lead.id}`,
      );
      return row?.agentId ?? null;
    };
    expect(await agentOf()).toBeNull();
    const manual = await admin.client.post('/api/admin/leads/assign', {
      leadId: lead.id,
      userId: agent.id,
    });
    expect(manual.statusCode).toBe(400);
    expect(manual.json()).toEqual({ message: 'This agent is not approved yet' });

    const approved = await admin.client.post(`/api/admin/agents/${agent.id}/approval`, {
      approve: true,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ id: agent.id, approval: 'APPROVED' });
    expect((await agent.client.get('/api/agent/stats')).statusCode).toBe(200);
    await admin.client.post('/api/admin/assignment/run');
    expect(await agentOf()).toBe(agent.id);
    const stillPending = (await admin.client.get('/api/admin/agents?approval=PENDING')).json();
    expect(stillPending.map((a: { id: number }) => a.id)).not.toContain(agent.id);
  });

  it('refusing an agent ends their sessions, and they cannot log in', async () => {
    const agent = await signUpAndIn(approval);
    const admin = await loginAdmin(approval);
    const refused = await admin.client.post(`/api/admin/agents/${agent.id}/approval`, {
      approve: false,
    });
    expect(refused.json()).toMatchObject({ approval: 'REFUSED' });
    expect((await agent.client.get('/api/auth/me')).statusCode).toBe(401);
    const login = await new Client(approval.app).post('/api/auth/login', {
      email: agent.email,
      password: PASSWORD,
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ message: 'Your account was not approved' });
  });

  it('an admin decides only on agents', async () => {
    const admin = await loginAdmin(approval);
    const self = await admin.client.post(`/api/admin/agents/${admin.id}/approval`, {
      approve: false,
    });
    expect(self.statusCode).toBe(404);
  });
});

describe('REGISTRATION=invite', () => {
  const inviteToken = (url: string) => new URL(url).searchParams.get('invite') ?? '';

  it('without an invite, registration is refused with a clear 403', async () => {
    const { res } = await signUp(invite);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: 'Registration is by invitation only: ask an admin for an invite link',
    });
    const forged = await signUp(invite, { invite: 'x'.repeat(43) });
    expect(forged.res.statusCode).toBe(403);
    expect(forged.res.json()).toEqual({
      message: 'This invite link has expired or was already used',
    });
  });

  it('an admin’s invite registers one agent, approved, once', async () => {
    const admin = await loginAdmin(invite);
    const made = await admin.client.post('/api/admin/invites', {});
    expect(made.statusCode).toBe(201);
    expect(made.json().url).toMatch(/^https:\/\/portal\.example\.com\/register\?invite=[\w-]{43}$/);
    const token = inviteToken(made.json().url);
    const first = await signUp(invite, { invite: token });
    expect(first.res.statusCode).toBe(201);
    expect(first.res.json().user.approval).toBe('APPROVED');
    const second = await signUp(invite, { invite: token });
    expect(second.res.statusCode).toBe(403);
    expect(second.res.json()).toEqual({
      message: 'This invite link has expired or was already used',
    });
  });

  it('an invite for an email registers that email only', async () => {
    const admin = await loginAdmin(invite);
    const email = uniqueEmail('invited');
    const made = await admin.client.post('/api/admin/invites', { email: email.toUpperCase() });
    const token = inviteToken(made.json().url);
    const other = await signUp(invite, { invite: token });
    expect(other.res.statusCode).toBe(403);
    expect(other.res.json()).toEqual({ message: 'This invite is for another email address' });
    const right = await new Client(invite.app).post('/api/auth/register', {
      name: 'Invited',
      email,
      password: PASSWORD,
      invite: token,
    });
    expect(right.statusCode).toBe(201);
  });

  it('an invite older than 7 days no longer works', async () => {
    const admin = await loginAdmin(invite);
    const token = inviteToken((await admin.client.post('/api/admin/invites', {})).json().url);
    await invite.database.db.execute(
      sql`update invites set expires_at = now() - interval '1 second' where used_at is null`,
    );
    const late = await signUp(invite, { invite: token });
    expect(late.res.statusCode).toBe(403);
  });

  it("an agency's invite link registers a member of the agency, approved; a used-up or unknown code is refused", async () => {
    // the owner came in through an admin's invite, then made their agency and its link
    const admin = await loginAdmin(invite);
    const token = inviteToken((await admin.client.post('/api/admin/invites', {})).json().url);
    const owner = await signUp(invite, { invite: token });
    expect(owner.res.statusCode).toBe(201);
    await owner.client.post('/api/auth/login', { email: owner.email, password: PASSWORD });
    expect((await owner.client.post('/api/agency', { name: 'Invited Agency' })).statusCode).toBe(
      201,
    );
    const link = await owner.client.post('/api/agency/invites', { role: 'AGENT', maxUses: 1 });
    const code = link.json().code as string;

    const member = await signUp(invite, { agencyInvite: code });
    expect(member.res.statusCode, member.res.body).toBe(201);
    expect(member.res.json().user.approval).toBe('APPROVED');
    await member.client.post('/api/auth/login', { email: member.email, password: PASSWORD });
    const mine = await member.client.get('/api/agency');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ agency: { name: 'Invited Agency' }, role: 'AGENT' });

    // the link admitted one: the next registration with it is refused and makes no account
    const late = await signUp(invite, { agencyInvite: code });
    expect(late.res.statusCode).toBe(403);
    expect(late.res.json()).toEqual({
      message: "This agency's invite link is not valid any more: ask the agency for a new one",
    });
    expect(
      (await late.client.post('/api/auth/login', { email: late.email, password: PASSWORD }))
        .statusCode,
    ).toBe(401);
    expect((await signUp(invite, { agencyInvite: 'no-such-code' })).res.statusCode).toBe(403);
  });

  it('a taken email does not use the invite up', async () => {
    const admin = await loginAdmin(invite);
    const token = inviteToken((await admin.client.post('/api/admin/invites', {})).json().url);
    const taken = await new Client(invite.app).post('/api/auth/register', {
      name: 'Taken',
      email: admin.email,
      password: PASSWORD,
      invite: token,
    });
    expect(taken.statusCode).toBe(409);
    expect((await signUp(invite, { invite: token })).res.statusCode).toBe(201);
  });
});
