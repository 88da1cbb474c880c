import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { HomeView } from '@/features/dashboard/home-screen.tsx';
import { ArchivedView } from '@/features/watchlists/archived-screen.tsx';
import { WatchlistsView } from '@/features/watchlists/watchlists-screen.tsx';

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
