import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ArchivedView } from './-components/archived-view.tsx';
import { HomeView } from './-components/home-view.tsx';
import { WatchlistsView } from './-components/watchlists-view.tsx';

/** '/' shows the Home, Watchlists or Archived view (SPEC.md §2), chosen by ?view=; all on server data. */
export const Route = createFileRoute('/_app/')({
  validateSearch: z.object({ view: z.enum(['watchlists', 'archived']).optional().catch(undefined) }),
  component: HomePage,
});

function HomePage() {
  const { view } = Route.useSearch();
  if (view === 'watchlists') return <WatchlistsView />;
  if (view === 'archived') return <ArchivedView />;
  return <HomeView />;
}
