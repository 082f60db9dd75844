import { describe, expect, it } from 'vitest';
import { afterLogin, loginFor } from './paths';

describe('the login on the way to a deep link', () => {
  it('remembers a deep link, not a portal home', () => {
    expect(loginFor('/dashboard/leads?lead=42')).toBe(
      '/login?next=%2Fdashboard%2Fleads%3Flead%3D42',
    );
    expect(loginFor('/dashboard')).toBe('/login');
    expect(loginFor('/admin')).toBe('/login');
  });

  it('goes on to a path of this site only, else home by role', () => {
    expect(afterLogin('AGENT', '/dashboard/leads?lead=42')).toBe('/dashboard/leads?lead=42');
    expect(afterLogin('AGENT', null)).toBe('/dashboard');
    expect(afterLogin('ADMIN', null)).toBe('/admin');
    for (const elsewhere of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example',
      'javascript:alert(1)',
    ])
      expect(afterLogin('AGENT', elsewhere), elsewhere).toBe('/dashboard');
  });
});
