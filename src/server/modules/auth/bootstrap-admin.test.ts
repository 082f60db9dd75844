import { describe, expect, it } from 'vitest';
import { firstAdminBox } from './bootstrap-admin';

describe('the first admin box printed at the end of the first start', () => {
  it('frames where to log in, the email and the generated password, every line the same width', () => {
    const lines = firstAdminBox(
      { email: 'admin@leadflow.local', password: 'Zt3-generated-pw' },
      'http://127.0.0.1:3000/login',
    );
    const box = lines.filter((l) => l !== '');
    expect(box[0]).toMatch(/^\+-+\+$/);
    expect(box.at(-1)).toBe(box[0]);
    expect(new Set(box.map((l) => l.length)).size).toBe(1);
    const text = box.join('\n');
    expect(text).toContain('http://127.0.0.1:3000/login');
    expect(text).toContain('email:    admin@leadflow.local');
    expect(text).toContain('password: Zt3-generated-pw');
    expect(text).toContain('shown once');
  });

  it('never prints a password that came from ADMIN_PASSWORD', () => {
    const text = firstAdminBox({ email: 'boss@agency.example', password: null }, 'x').join('\n');
    expect(text).toContain('password: the one in ADMIN_PASSWORD');
    expect(text).not.toContain('shown once');
  });
});
