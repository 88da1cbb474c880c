import argon2 from 'argon2';
import { createSemaphore } from '../../platform/semaphore.ts';

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane. */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Each hash holds 19 MiB; a login storm must not exhaust memory.
const limit = createSemaphore(4);

export function hashPassword(password: string): Promise<string> {
  return limit(() => argon2.hash(password, options));
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return limit(() => argon2.verify(hash, password).catch(() => false));
}

/** A real hash of nothing, verified against for unknown e-mails so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyVerify(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password-1A');
  return dummyHash.then((h) => verifyPassword(h, password)).then(() => false);
}
