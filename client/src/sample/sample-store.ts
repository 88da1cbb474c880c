import { createContext, use, useSyncExternalStore } from 'react';
import { autoArchive, createSampleData, type SampleAlert, type Watchlist } from './sample-data.ts';

export interface SampleState {
  alerts: SampleAlert[];
  archived: SampleAlert[];
  watchlists: Watchlist[];
}

/** The in-memory sample data behind Home, Watchlists, Archived and the edit drawer. */
export function createSampleStore(now: number = Date.now()) {
  const data = createSampleData(now);
  const { active, archived } = autoArchive(data.alerts, now);
  let state: SampleState = { alerts: active, archived, watchlists: data.watchlists };
  const listeners = new Set<() => void>();
  let nextId = 1;

  function update(next: Partial<SampleState>) {
    state = { ...state, ...next };
    for (const listener of listeners) listener();
  }

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    updateAlert(alert: SampleAlert) {
      update({
        alerts: state.alerts.map((a) =>
          a.id === alert.id ? { ...alert, updatedAt: new Date().toISOString() } : a,
        ),
      });
    },
    saveWatchlist(watchlist: Omit<Watchlist, 'id'> & { id?: string }): Watchlist {
      if (watchlist.id) {
        const previous = state.watchlists.find((w) => w.id === watchlist.id);
        const saved = { ...watchlist, id: watchlist.id };
        update({
          watchlists: state.watchlists.map((w) => (w.id === saved.id ? saved : w)),
          // A renamed watchlist keeps its alerts.
          alerts: previous
            ? state.alerts.map((a) =>
                a.watchlistName === previous.name ? { ...a, watchlistName: saved.name } : a,
              )
            : state.alerts,
        });
        return saved;
      }
      const created = { ...watchlist, id: `wl-new-${nextId++}` };
      update({ watchlists: [...state.watchlists, created] });
      return created;
    },
    deleteWatchlist(id: string) {
      update({ watchlists: state.watchlists.filter((w) => w.id !== id) });
    },
    restore(ids: readonly string[]) {
      const chosen = new Set(ids);
      const now = new Date().toISOString();
      const restored = state.archived.filter((a) => chosen.has(a.id)).map((a) => ({ ...a, updatedAt: now }));
      update({
        archived: state.archived.filter((a) => !chosen.has(a.id)),
        alerts: [...restored, ...state.alerts],
      });
    },
    deletePermanently(ids: readonly string[]) {
      const chosen = new Set(ids);
      update({ archived: state.archived.filter((a) => !chosen.has(a.id)) });
    },
  };
}

export type SampleStore = ReturnType<typeof createSampleStore>;

let shared: SampleStore | null = null;
const SampleStoreContext = createContext<SampleStore | null>(null);
export const SampleStoreProvider = SampleStoreContext;

/** One store per page load (the data is sample data; it resets on reload). */
export function useSampleStore(): SampleStore {
  const provided = use(SampleStoreContext);
  if (provided) return provided;
  shared ??= createSampleStore();
  return shared;
}

export function useSampleState(): SampleState {
  const store = useSampleStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
