import type { AlertInsight } from '@resort/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithMantine } from '@/test/render.tsx';
import { TimelineCauses } from './alert-timeline.tsx';
import { PollLog } from './poll-log.tsx';

const poll = (over: Partial<AlertInsight['polls'][number]>): AlertInsight['polls'][number] => ({
  id: '1',
  startedAt: '2026-11-24T06:00:00.000Z',
  dueAt: '2026-11-24T06:00:00.000Z',
  outcome: 'error',
  pollClass: 'refused',
  classWords: 'Refused by the site (blocked, login or rate limit)',
  durationMs: 12,
  latenessMs: 0,
  statusCode: 403,
  via: null,
  notified: false,
  error: 'Upstream answered 403 with an HTML page.',
  watchedValue: null,
  ...over,
});

describe('poll classes in words', () => {
  it('the poll log says what each failed or drifted poll saw', async () => {
    renderWithMantine(
      <PollLog
        polls={[
          poll({}),
          poll({
            id: '2',
            outcome: 'not_matched',
            pollClass: 'drift',
            classWords: "The answer changed shape: a rule's path is missing from it",
            statusCode: 200,
            error: null,
          }),
          poll({ id: '3', outcome: 'matched', pollClass: 'matched', classWords: 'Matched', error: null }),
        ]}
      />,
    );
    const words = screen.getAllByTestId('poll-class').map((e) => e.textContent);
    expect(words).toEqual([
      'Refused by the site (blocked, login or rate limit)',
      "The answer changed shape: a rule's path is missing from it",
    ]);
  });

  it("the timeline names its buckets' causes once each", async () => {
    renderWithMantine(
      <TimelineCauses
        buckets={[
          { causes: ['The site answered with an error'] },
          { causes: ['The site answered with an error', 'The site did not answer in time'] },
          { causes: [] },
        ]}
      />,
    );
    expect(screen.getByTestId('timeline-causes')).toHaveTextContent(
      'Why polls failed: The site answered with an error; The site did not answer in time',
    );
  });
});
