import { AGENT_ONLY, type RouteCase } from './route-case';

export const preferencesRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/agent/preferences',
    expect: AGENT_ONLY(200),
    request: () => ({ url: '/api/agent/preferences' }),
  },
  {
    method: 'GET',
    path: '/api/agent/preferences/preview',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/preferences/preview?states=TX,FL&cities=Dallas&ageMin=60&ageMax=80',
    }),
    invalid: () => ({ url: '/api/agent/preferences/preview?states=XX&ageMin=90&ageMax=20' }),
  },
  {
    method: 'PUT',
    path: '/api/agent/preferences',
    expect: AGENT_ONLY(200),
    request: () => ({
      url: '/api/agent/preferences',
      body: { states: ['TX'], cities: ['Dallas'], ageMin: 60, ageMax: 80, categories: [] },
    }),
    invalid: () => ({
      url: '/api/agent/preferences',
      body: { states: ['XX'], cities: [], ageMin: 90, ageMax: 20, categories: [] },
    }),
  },
];
