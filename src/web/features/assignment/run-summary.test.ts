import { describe, expect, it } from 'vitest';
import { runSummary } from './run-summary';

describe('runSummary', () => {
  it('says how many leads went to how many agents, singular when one', () => {
    expect(runSummary({ assigned: 12, agentsAssigned: 3 })).toBe('Assigned 12 leads to 3 agents.');
    expect(runSummary({ assigned: 1, agentsAssigned: 1 })).toBe('Assigned 1 lead to 1 agent.');
    expect(runSummary({ assigned: 0, agentsAssigned: 0 })).toBe('Assigned 0 leads to 0 agents.');
  });
});
