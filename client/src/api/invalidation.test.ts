import { MutationObserver, QueryObserver, type QueryObserverOptions } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { createTRPCClient } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { ApiAnswer, answerLink, type Call, type Handlers } from '@/test/api-harness.tsx';
import { createApi } from './api.ts';
import { type AppRouter, createOptionsProxy, createQueryClient } from './trpc.ts';

/** The real API table over an in-process link; screens are stood in for by query observers. */
function setUp(handlers: Handlers) {
  const calls: Call[] = [];
  const client = createTRPCClient<AppRouter>({ links: [answerLink(handlers, calls)] });
  const queryClient = createQueryClient();
  const api = createApi(createOptionsProxy(client, queryClient), client, queryClient);
  const fetched = (path: string, id?: string) =>
    calls.filter((c) => c.path === path && (id === undefined || (c.input as { id?: string })?.id === id))
      .length;
  /** A screen showing this query: it is fetched at once and again whenever it goes stale. */
  const show = async (options: object) => {
    const observer = new QueryObserver(queryClient, options as QueryObserverOptions);
    observer.subscribe(() => {});
    await waitFor(() => expect(observer.getCurrentResult().isSuccess).toBe(true));
  };
  const run = <V>(options: object, variables: V) =>
    new MutationObserver(queryClient, options as never).mutate(variables as never);
  return { api, queryClient, fetched, show, run };
}

describe('the invalidation map', () => {
  it('resolves a status change once the shown alert list and account summary are fetched again', async () => {
    const t = setUp({
      'alerts.list': () => [],
      'users.me': () => ({ user: { id: 'u1' }, notificationServices: [], registrations: [] }),
      'proxies.list': () => [],
      'alerts.update': () => ({ id: 'a1', status: 'BOOKED' }),
    });
    await t.show(t.api.alerts.mine());
    await t.show(t.api.account.summary());
    await t.show(t.api.proxies.list());
    await t.run(t.api.alerts.setStatus(), { id: 'a1', status: 'BOOKED' });
    expect(t.fetched('alerts.list')).toBe(2);
    expect(t.fetched('users.me')).toBe(2);
    expect(t.fetched('proxies.list')).toBe(1);
  });

  it('fetches the shown answers again after a failed change too', async () => {
    const t = setUp({
      'proxies.list': () => [],
      'proxies.remove': () => {
        throw new ApiAnswer(404, 'Proxy not found.');
      },
    });
    await t.show(t.api.proxies.list());
    await expect(t.run(t.api.proxies.remove(), { id: 'p1' })).rejects.toThrow('Proxy not found.');
    expect(t.fetched('proxies.list')).toBe(2);
  });

  it('writes a saved profile into the cache instead of asking for it again', async () => {
    const saved = { id: 'u1', name: 'Ada Lovelace', email: 'ada@example.com', roles: ['user'] };
    const t = setUp({
      'auth.me': () => ({ ...saved, name: 'Ada' }),
      'users.me': () => ({ user: saved, notificationServices: [], registrations: [] }),
      'users.updateProfile': () => saved,
    });
    await t.show(t.api.account.profile());
    await t.show(t.api.account.summary());
    await t.run(t.api.account.updateProfile(), { name: 'Ada Lovelace' });
    expect(t.queryClient.getQueryData(t.api.account.profile().queryKey)).toEqual(saved);
    expect(t.fetched('auth.me')).toBe(1);
    expect(t.fetched('users.me')).toBe(2);
  });

  it('drops a deleted template and refreshes the template list', async () => {
    const t = setUp({
      'templates.get': () => ({ id: 't1', name: 'Lagoon' }),
      'templates.list': () => [],
      'templates.delete': () => undefined,
    });
    await t.queryClient.fetchQuery(t.api.templates.get('t1'));
    await t.show(t.api.templates.list());
    await t.run(t.api.templates.remove(), { id: 't1' });
    expect(t.queryClient.getQueryData(t.api.templates.get('t1').queryKey)).toBeUndefined();
    expect(t.fetched('templates.list')).toBe(2);
  });

  it('refreshes the page of the alert checked now, not the pages of others', async () => {
    const t = setUp({
      'alertInsight.get': (input) => ({ alert: { id: (input as { id: string }).id } }),
      'alertInsight.checkNow': () => ({ queued: true }),
    });
    await t.show(t.api.alertInsight.get('a1', false));
    await t.show(t.api.alertInsight.get('a2', false));
    await t.run(t.api.alertInsight.checkNow(), { id: 'a1' });
    expect(t.fetched('alertInsight.get', 'a1')).toBe(2);
    expect(t.fetched('alertInsight.get', 'a2')).toBe(1);
  });

  it('applies an entry to every mutation of the API table', () => {
    // Entries are option factories, except on-demand fetches (the data export), which call at once:
    // their answer here is a refusal, not options, and is put aside.
    const optionsOf = (make: () => unknown) => {
      const made = make();
      if (made instanceof Promise) {
        made.catch(() => {});
        return null;
      }
      return made;
    };
    const { api } = setUp({});
    const mutations = Object.entries(api).flatMap(([group, calls]) =>
      Object.entries(calls as Record<string, (...args: never[]) => unknown>)
        .map(([name, make]) => [`${group}.${name}`, make.length === 0 ? optionsOf(make) : null] as const)
        .filter(([, options]) => typeof (options as { mutationFn?: unknown })?.mutationFn === 'function'),
    );
    expect(mutations.length).toBeGreaterThan(30);
    for (const [name, options] of mutations) {
      expect(typeof (options as { onSettled?: unknown }).onSettled, name).toBe('function');
    }
  });
});
