import { describe, expect, it } from 'vitest';
import type { AdminAgent } from '../../../shared/contracts/admin';
import { agentOptionDetail, assignWarnings } from './assign-warnings';

const agent = (over: Partial<AdminAgent> = {}): AdminAgent => ({
  id: 1,
  name: 'Eva Brooks',
  email: 'eva@example.com',
  totalLeads: 3,
  convertedLeads: 1,
  todayQuota: { assigned: 2, limit: 5 },
  subscription: {
    id: 9,
    status: 'ACTIVE',
    package: {
      name: 'Medicare Starter',
      priceMonthlyCents: 19_900,
      category: 'MEDICARE',
      leadsPerDay: 5,
    },
  },
  ...over,
});
const withStatus = (status: 'ACTIVE' | 'PAST_DUE' | 'CANCELED' | 'INACTIVE') => {
  const base = agent();
  return agent({ subscription: { ...base.subscription!, status } });
};

const LEAD = { category: 'MEDICARE', state: 'TX', city: 'Austin', age: 70 } as const;

describe("assign warnings: the fit rule's reasons in words", () => {
  it('none when the agent fits', () => {
    expect(assignWarnings(agent(), LEAD, [])).toEqual([]);
  });

  it('an agent without a subscription, once', () => {
    expect(
      assignWarnings(agent({ subscription: null, todayQuota: null }), LEAD, [
        'NOT_ACTIVE',
        'CATEGORY',
      ]),
    ).toEqual(['Eva Brooks has no subscription.']);
  });

  it('a subscription that is not active, and a package of another category', () => {
    expect(assignWarnings(withStatus('PAST_DUE'), LEAD, ['NOT_ACTIVE'])).toEqual([
      "Eva Brooks's subscription is past due.",
    ]);
    expect(
      assignWarnings(withStatus('CANCELED'), { ...LEAD, category: 'FINAL_EXPENSE' }, [
        'NOT_ACTIVE',
        'CATEGORY',
      ]),
    ).toEqual([
      "Eva Brooks's subscription is canceled.",
      "Eva Brooks's package, Medicare Starter, is for MEDICARE leads; this lead is FINAL EXPENSE.",
    ]);
  });

  it('preferences that leave the lead out, condition by condition', () => {
    expect(assignWarnings(agent(), LEAD, ['CATEGORY', 'STATE', 'CITY', 'AGE'])).toEqual([
      "Eva Brooks's preferences leave out MEDICARE leads.",
      "Eva Brooks's preferences leave out TX.",
      "Eva Brooks's preferences leave out Austin.",
      "Eva Brooks's preferences leave out age 70.",
    ]);
    expect(assignWarnings(agent(), LEAD, ['ENROLLMENT_WINDOW'])).toEqual([
      "Eva Brooks's package, Medicare Starter, receives leads only in the MEDICARE enrollment window, which is closed today.",
    ]);
  });

  it('a paused agent and a lead outside the licence (docs/domain.md, Pause, Licensed states)', () => {
    expect(
      assignWarnings(
        agent({ pause: { since: '2026-11-20T12:00:00Z', until: '2026-12-01' } }),
        LEAD,
        ['PAUSED'],
      ),
    ).toEqual(['Eva Brooks is paused until Dec 1.']);
    expect(
      assignWarnings(agent({ pause: { since: '2026-11-20T12:00:00Z', until: null } }), LEAD, [
        'PAUSED',
      ]),
    ).toEqual(['Eva Brooks is paused until they resume.']);
    expect(assignWarnings(agent({ licensedStates: ['FL'] }), LEAD, ['LICENCE'])).toEqual([
      'Eva Brooks is not licensed in TX.',
    ]);
  });
});

describe('the agent list', () => {
  it('shows category and quota, or why there is none', () => {
    expect(agentOptionDetail(agent())).toBe('MEDICARE · 2 / 5 today');
    expect(agentOptionDetail(withStatus('PAST_DUE'))).toBe('MEDICARE · subscription past due');
    expect(agentOptionDetail(agent({ subscription: null, todayQuota: null }))).toBe(
      'no subscription',
    );
  });
});
