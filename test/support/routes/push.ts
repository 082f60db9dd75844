import { createECDH, randomBytes } from 'node:crypto';
import { AGENT_ONLY, PUBLIC, type RouteCase } from './route-case';

/**
 * Push (docs/domain.md, Alerts to the agent's phone). This app refuses private addresses, so the
 * device's endpoint is a public address written as an IP (nothing is looked up, nothing is sent).
 */
let seq = 0;
function deviceBody() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://1.1.1.1/push/matrix-${process.pid}-${++seq}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

const path = '/api/agent/push/subscriptions';

export const pushRoutes: RouteCase[] = [
  {
    method: 'GET',
    path: '/api/push/public-key',
    expect: PUBLIC(200),
    request: () => ({ url: '/api/push/public-key' }),
  },
  {
    method: 'GET',
    path,
    expect: AGENT_ONLY(200),
    request: () => ({ url: path }),
  },
  {
    method: 'POST',
    path,
    expect: AGENT_ONLY(201),
    request: () => ({ url: path, body: deviceBody() }),
    invalid: () => ({ url: path, body: { endpoint: 'https://1.1.1.1/push/x', keys: {} } }),
  },
  {
    method: 'DELETE',
    path,
    expect: AGENT_ONLY(200),
    request: () => ({ url: path, body: { endpoint: deviceBody().endpoint } }),
    invalid: () => ({ url: path, body: { endpoint: '' } }),
  },
];
