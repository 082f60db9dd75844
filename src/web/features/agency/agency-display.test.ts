import type { AgencyInvite, AgencyMember, MyAgency } from '@shared/contracts/agency';
import { describe, expect, it } from 'vitest';
import {
  agencyRoleLabel,
  inviteState,
  inviteUses,
  licensedStatesText,
  managerChoices,
  managerName,
  membershipLine,
  numberText,
  optionalNumber,
  reassignChoices,
  withArticle,
} from './agency-display';

const invite = (over: Partial<AgencyInvite>): AgencyInvite => ({
  id: 1,
  role: 'AGENT',
  manager: null,
  maxUses: null,
  uses: 0,
  expiresAt: '2030-01-08T00:00:00.000Z',
  createdBy: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  usable: true,
  ...over,
});

const member = (userId: number, role: AgencyMember['role'], manager: string | null = null) =>
  ({
    userId,
    name: `M${userId}`,
    role,
    manager: manager ? { id: 99, name: manager } : null,
  }) as AgencyMember;

const mine = (over: Partial<MyAgency>): MyAgency => ({
  agency: {
    id: 1,
    name: 'Acme',
    status: 'ACTIVE',
    dailyCap: null,
    reclaimAfterMinutes: null,
    requireTwoFactor: false,
    createdAt: '2030-01-01T00:00:00.000Z',
  },
  role: 'AGENT',
  manager: null,
  owner: { id: 1, name: 'Olga Owner' },
  paidByAgency: false,
  ...over,
});

describe('agency display', () => {
  it('names roles, with the article a sentence needs', () => {
    expect(agencyRoleLabel('MANAGER')).toBe('Manager');
    expect(withArticle('AGENT')).toBe('an Agent');
    expect(withArticle('MANAGER')).toBe('a Manager');
  });

  it('reads an empty number field as none, anything else as typed', () => {
    expect(optionalNumber('')).toBeNull();
    expect(optionalNumber('  ')).toBeNull();
    expect(optionalNumber(' 40 ')).toBe(40);
    expect(optionalNumber('2.5')).toBe(2.5);
    expect(numberText(null)).toBe('');
    expect(numberText(30)).toBe('30');
  });

  it('says why an invite admits nobody any more', () => {
    const now = Date.parse('2030-01-05T00:00:00.000Z');
    expect(inviteState(invite({}), now)).toBe('Usable');
    expect(inviteState(invite({ usable: false, maxUses: 2, uses: 2 }), now)).toBe('Used up');
    expect(inviteState(invite({ usable: false, expiresAt: '2030-01-04T00:00:00.000Z' }), now)).toBe(
      'Expired',
    );
    expect(inviteUses(invite({ uses: 3 }))).toBe('3 joined · no limit');
    expect(inviteUses(invite({ uses: 1, maxUses: 5 }))).toBe('1 of 5 joined');
  });

  it('offers the owner and managers as managers, and every other member for a reassignment', () => {
    const members = [member(1, 'OWNER'), member(2, 'MANAGER'), member(3, 'AGENT')];
    expect(managerChoices(members).map((m) => m.userId)).toEqual([1, 2]);
    expect(reassignChoices(members, 3).map((m) => m.userId)).toEqual([1, 2]);
    expect(reassignChoices(members, null)).toHaveLength(3);
  });

  it("shows the owner as the manager of the owner's own team", () => {
    expect(managerName(member(3, 'AGENT'), { name: 'Olga' })).toBe('Olga');
    expect(managerName(member(3, 'AGENT', 'Max'), { name: 'Olga' })).toBe('Max');
    expect(managerName(member(1, 'OWNER'), { name: 'Olga' })).toBe('—');
  });

  it("names the member's agency and manager for their dashboard", () => {
    expect(membershipLine(mine({}))).toBe('Member of Acme · Manager: Olga Owner');
    expect(membershipLine(mine({ manager: { id: 2, name: 'Max' } }))).toBe(
      'Member of Acme · Manager: Max',
    );
    expect(membershipLine(mine({ role: 'OWNER' }))).toBe('Owner of Acme');
  });

  it('lists licensed states briefly', () => {
    expect(licensedStatesText([])).toBe('Any state');
    expect(licensedStatesText(['TX', 'FL'])).toBe('TX, FL');
    expect(licensedStatesText(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'])).toBe(
      'A, B, C, D, E, F +2',
    );
  });
});
