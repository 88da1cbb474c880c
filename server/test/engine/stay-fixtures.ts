import type { StayWindow, TemplateStay, WatchConfigInput } from '@resort/shared';
import { startSimulator } from '../../../scripts/simulator.ts';
import type { Database } from '../../src/db/database.ts';
import { createAlerts } from './engine-fixtures.ts';

/**
 * Stay-window fixtures: a template on the scripted simulator that declares its stay, and window
 * alerts on it (rows written directly: setup only).
 */
export const startStaySimulator = () => startSimulator({ openNights: [] });

export type StaySimulator = Awaited<ReturnType<typeof startStaySimulator>>;

const dateField = (path: string, label: string) => ({ target: 'QUERY', path, label, fieldType: 'DATE' });

/** Per stay: GET /availability?checkIn&checkOut&adults. Per night: GET /nights?from&to (one request a window). */
export async function createStayTemplate(
  db: Database,
  simulatorUrl: string,
  kind: 'per-stay' | 'per-night' = 'per-stay',
): Promise<string> {
  const perNight = kind === 'per-night';
  const [inPath, outPath] = perNight ? ['from', 'to'] : ['checkIn', 'checkOut'];
  const stay: TemplateStay = {
    checkIn: { target: 'QUERY', path: inPath },
    checkOut: { target: 'QUERY', path: outPath },
    bookingUrl: 'https://resort.example/book?arrive={checkIn}&depart={checkOut}&adults={adults}',
    ...(perNight
      ? { perNight: { path: 'nights', dateField: 'date', availableField: 'available', availableValue: true } }
      : {}),
  };
  const row = await db
    .insertInto('templates')
    .values({
      name: perNight ? 'Lagoon nights' : 'Lagoon stays',
      resort_code: 'LG',
      target_url: `${simulatorUrl}/${perNight ? 'nights' : 'availability'}`,
      method: 'GET',
      default_headers: '{}',
      default_query: JSON.stringify({ resort: 'LG' }),
      editable_fields: JSON.stringify([
        dateField(inPath, 'Check-in'),
        dateField(outPath, 'Check-out'),
        { target: 'QUERY', path: 'adults', label: 'Adults', fieldType: 'NUMBER', defaultValue: 2 },
      ]),
      stay: JSON.stringify(stay),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const lagoonOpen: WatchConfigInput = {
  all: [{ path: 'rooms[*].available', operator: 'equals', value: true, label: 'Lagoon View' }],
  notifyOn: 'firstMatch',
};

/** Window alerts on `templateId`, linked to the planner's webhook; answers their ids in order. */
export async function createWindowAlerts(
  db: Database,
  planner: { userId: string; serviceId: string },
  templateId: string,
  alerts: {
    window: StayWindow[];
    watch?: WatchConfigInput;
    interval?: number;
    adults?: number;
    title?: string;
  }[],
): Promise<string[]> {
  // One transaction: the running engine never claims a window alert before it has its window.
  return db.transaction().execute(async (trx) => {
    const ids = await createAlerts(
      trx,
      planner,
      templateId,
      alerts.map((a, i) => ({
        watch: a.watch ?? lagoonOpen,
        interval: a.interval,
        title: a.title ?? `Window ${i + 1}`,
      })),
    );
    await Promise.all(
      ids.map((id, i) =>
        trx
          .updateTable('alerts')
          .set({
            overrides: JSON.stringify({ query: { adults: alerts[i]!.adults ?? 2 } }),
            stay_window: JSON.stringify(alerts[i]!.window),
          })
          .where('id', '=', id)
          .execute(),
      ),
    );
    return ids;
  });
}

/** The nights from `first` on, `count` of them, as YYYY-MM-DD. */
export function nightsFrom(first: string, count: number): string[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}
