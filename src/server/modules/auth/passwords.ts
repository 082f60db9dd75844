import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../lib/app-error';

// OWASP's argon2id profile: 19 MiB, 2 iterations, 1 lane (argon2id is the library's default).
const PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2 runs on libuv's thread pool (4 threads), the same pool that reads static files and
 * compresses: at most 2 hashes or checks run at once, so the other threads stay free, and at most
 * HASH_QUEUE wait their turn; beyond that the caller gets a 503 with Retry-After at once.
 */
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE = 32;

let running = 0;
const waiting: (() => void)[] = [];

export function passwordWorkBusy(): AppError {
  return new AppError('SERVICE_UNAVAILABLE', 'The server is busy: please try again in a moment', {
    'retry-after': '1',
  });
}

/** Runs one argon2 operation within the cap; throws passwordWorkBusy() when the queue is full. */
async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) {
    if (waiting.length >= HASH_QUEUE) throw passwordWorkBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    // hand the slot straight to the next in line, or free it
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return gated(() => hash(password, PARAMS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return gated(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}

/** Spent on unknown accounts so a login answer's timing does not tell which emails exist. */
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hash('not-a-real-password', PARAMS);
  await verifyPassword(await dummyHash, password);
}
