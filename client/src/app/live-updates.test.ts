import type { LiveEvent } from '@resort/shared';
import { QueryObserver } from '@tanstack/react-query';
import { createTRPCClient } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { type AppRouter, createOptionsProxy, createQueryClient } from '@/api/trpc.ts';
import { answerLink } from '@/test/api-harness.tsx';
import { createInvalidator } from './live-updates.tsx';

const ready = { kind: 'ready' } as LiveEvent;
const insightPath = 'alertInsight.get';
const settle = () => new Promise((resolve) => setTimeout(resolve, 250));

/** The alert page's query, watched as the page watches it, with the upstream answer delayed by `delayMs`. */
function setUp(delayMs: number) {
  const calls: { path: string; input: unknown }[] = [];
  const client = createTRPCClient<AppRouter>({
    links: [
      answerLink(
        {
          [insightPath]: () =>
            new Promise((resolve) => setTimeout(() => resolve({ alert: { id: 'a1' } }), delayMs)),
        },
        calls,
      ),
    ],
  });
  const queryClient = createQueryClient();
  const trpc = createOptionsProxy(client, queryClient);
  const apply = createInvalidator(queryClient, trpc);
  const observer = new QueryObserver(
    queryClient,
    trpc.alertInsight.get.queryOptions({ id: 'a1' }, { staleTime: 0 }),
  );
  const unsubscribe = observer.subscribe(() => {});
  const fetches = () => calls.filter((c) => c.path === insightPath).length;
  return { apply, fetches, unsubscribe };
}

describe('live updates: a new or resumed stream ("ready")', () => {
  it('neither cancels nor repeats the page request in flight when the first stream opens', async () => {
    const page = setUp(150);
    page.apply(ready);
    await settle();
    expect(page.fetches()).toBe(1);
    page.unsubscribe();
  });

  it('does not fetch again an answer that arrived after the first stream was opened', async () => {
    const page = setUp(0);
    await settle();
    page.apply(ready);
    await settle();
    expect(page.fetches()).toBe(1);
    page.unsubscribe();
  });

  it('fetches every answer again when the stream resumes after a drop', async () => {
    const page = setUp(0);
    await settle();
    page.apply(ready);
    await settle();
    page.apply(ready);
    await settle();
    expect(page.fetches()).toBe(2);
    page.unsubscribe();
  });

  it('fetches the page again on an event about its alert', async () => {
    const page = setUp(0);
    await settle();
    page.apply({ kind: 'status', registrationId: 'a1' } as LiveEvent);
    await settle();
    expect(page.fetches()).toBe(2);
    page.unsubscribe();
  });
});
