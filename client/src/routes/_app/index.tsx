import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { HomeScreen } from '@/features/dashboard/home-screen.tsx';
import { ArchivedScreen } from '@/features/watchlists/archived-screen.tsx';
import { WatchlistsScreen } from '@/features/watchlists/watchlists-screen.tsx';

/** '/' shows the Home, Watchlists or Archived view, chosen by ?view=; all on server data. */
export const Route = createFileRoute('/_app/')({
  validateSearch: z.object({ view: z.enum(['watchlists', 'archived']).optional().catch(undefined) }),
  component: HomePage,
});

function HomePage() {
  const { view } = Route.useSearch();
  if (view === 'watchlists') return <WatchlistsScreen />;
  if (view === 'archived') return <ArchivedScreen />;
  return <HomeScreen />;
}
