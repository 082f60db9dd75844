import { AGENT_ONLY, type RouteCase } from './route-case';

const ANY_TIME = { start: '00:00', end: '24:00' };
const WEEK = {
  mon: ANY_TIME,
  tue: ANY_TIME,
  wed: ANY_TIME,
  thu: ANY_TIME,
  fri: ANY_TIME,
  sat: ANY_TIME,
  sun: ANY_TIME,
};

export const scheduleRoutes: RouteCase[] = [
  // schedule and caps (docs/domain.md, Schedule and caps): any time of day and no caps keep the
  // fixture agents eligible
  {
    method: 'GET',
    path: '/api/agent/schedule',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/schedule' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/schedule',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/schedule', body: { timeZone: 'UTC', days: WEEK } }),
    invalid: () => ({ url: '/api/agent/schedule', body: { timeZone: 'UTC', days: { mon: 9 } } }),
  },
  {
    method: 'GET',
    path: '/api/agent/caps',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/caps' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/caps',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/caps',
      body: { daily: null, weekly: null, monthly: null, monthlyBudgetCents: null },
    }),
    invalid: () => ({
      url: '/api/agent/caps',
      body: { daily: -1, weekly: null, monthly: null, monthlyBudgetCents: null },
    }),
  },
];
