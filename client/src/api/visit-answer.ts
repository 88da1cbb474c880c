import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';

/**
 * Rows a planner acts on row by row, read fresh on each visit (docs/product.md, Watchlists and
 * Archived). `waiting` until this visit's first answer arrives: the last visit's rows never show, so
 * that answer cannot reorder them under the pointer. `unconfirmed` while the rows shown are not yet
 * confirmed by a read of their own key since it was opened (the previous page's while the next loads,
 * or a page read on an earlier turn): they are not to be acted on.
 */
export function useVisitAnswer(
  query: Pick<UseQueryResult, 'isPending' | 'isFetching' | 'isFetchedAfterMount'>,
): { waiting: boolean; unconfirmed: boolean } {
  const unconfirmed = query.isFetching && !query.isFetchedAfterMount;
  const [answered, setAnswered] = useState(false);
  if (!answered && query.isFetchedAfterMount) setAnswered(true);
  return { waiting: query.isPending || (unconfirmed && !answered), unconfirmed };
}
