import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { setRoles } from './db.ts';

export interface Account {
  /** Unique to this account: journeys put it in the names they create. */
  tag: string;
  name: string;
  email: string;
  password: string;
}

/** A new, unique account's details (each journey makes its own people, so files run in any order). */
export function newAccount(who: string): Account {
  const tag = randomBytes(4).toString('hex');
  return {
    tag,
    name: `${who} ${tag}`,
    email: `${who.toLowerCase()}.${tag}@e2e.test`,
    password: `Journey${tag}9x`,
  };
}

/**
 * Registers an account through the REST API and gives it exactly `roles`: the first account of an
 * instance becomes super_admin, and a journey must not depend on which file ran first.
 */
export async function createAccount(who: string, roles: string[]): Promise<Account> {
  const account = newAccount(who);
  const res = await fetch(`${inject('baseUrl')}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: account.name, email: account.email, password: account.password }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  await setRoles(account.email, roles);
  return account;
}

/** Signs in through the login form, starting from `path` (a protected page sends it to /login). */
export async function signIn(page: Page, account: Account, path = '/'): Promise<void> {
  await page.goto(path);
  await page.waitForURL(/\/login/);
  await page.getByLabel(/^Email/).fill(account.email);
  await page.getByLabel(/^Password/).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}
