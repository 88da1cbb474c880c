/**
 * A loopback resort-availability upstream for the engine's benchmark and the demo (`npm run demo`).
 * Rooms open and close over time, deterministically by seed: the same seed, request and moment give
 * the same answer, on any machine.
 *
 *   node scripts/simulator.ts --port 4100 --seed 7 [--latency-ms 20] [--open-probability 0.08]
 *
 * GET or POST /availability?resort=…&checkIn=…&adults=… (any other query or JSON body fields make a
 * different request) answers { resort, checkIn, adults, rooms: [{ code, name, available, remaining,
 * price }], anyAvailable, generatedAt }. GET /health answers { status: "ok" }; GET /stats the request
 * counts (total, per path, peak concurrency).
 *
 * Date-dependent availability, scripted by tests and benchmarks: after `openNights([...dates])` (or
 * `--open-nights 2027-06-10,2027-06-11`), /availability answers by the stay it is asked for
 * (checkIn with checkOut or nights): its one room 'Lagoon View' is available exactly when every night
 * of the stay is open (2 rooms at $689). GET /nights?from=…&to=… lists each night from `from` up to
 * (not including) `to` as { date, available, price }: a per-night answer serving a whole window.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

export interface SimulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** Probability that a room is open in a given epoch (each room's epochs last 30 to 300 s). */
  openProbability?: number;
  /** Added to every answer, to stand in for a real resort API's response time. */
  latencyMs?: number;
  rooms?: number;
  /** The clock (ms); a test can pin it. */
  now?: () => number;
  /** Starts scripted: exactly these nights are open (see `openNights`). */
  openNights?: readonly string[];
}

export interface SimulatorStats {
  requests: number;
  byPath: Record<string, number>;
  concurrent: number;
  maxConcurrent: number;
}

export interface Simulator {
  url: string;
  port: number;
  stats(): SimulatorStats;
  /** Scripts date-dependent availability: exactly these nights (YYYY-MM-DD) are open from now on. */
  openNights(dates: readonly string[]): void;
  /** Requests answered per distinct stay (`checkIn/checkOut`), for tests that count fetches. */
  stayRequests(): Map<string, number>;
  close(): Promise<void>;
}

const ROOM_NAMES = ['Standard View', 'Garden View', 'Lake View', 'Theme Park View', 'Club Level', 'Suite'];

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche so neighbouring inputs give unrelated outputs.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** The availability answer for one request at one moment: a pure function of seed, request and time. */
export function availability(
  seed: number,
  params: Record<string, unknown>,
  nowMs: number,
  options: { openProbability: number; rooms: number },
) {
  const key = JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  );
  const rooms = [];
  for (let r = 0; r < options.rooms; r++) {
    const roomKey = `${seed}|${key}|${r}`;
    const epochSeconds = 30 + (hash32(`${roomKey}|len`) % 271);
    const offset = hash32(`${roomKey}|off`) % epochSeconds;
    const epoch = Math.floor((nowMs / 1000 + offset) / epochSeconds);
    const roll = hash32(`${roomKey}|${epoch}`);
    const available = roll / 2 ** 32 < options.openProbability;
    rooms.push({
      code: `R${r + 1}`,
      name: ROOM_NAMES[r % ROOM_NAMES.length],
      available,
      remaining: available ? 1 + (roll % 5) : 0,
      price: 180 + (hash32(`${roomKey}|${epoch}|price`) % 420),
    });
  }
  return {
    resort: params.resort ?? null,
    checkIn: params.checkIn ?? null,
    adults: params.adults === undefined ? null : Number(params.adults),
    rooms,
    anyAvailable: rooms.some((r) => r.available),
    generatedAt: new Date(nowMs).toISOString(),
  };
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso.slice(0, 10)}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The stay a request asks for: check-in and check-out (or check-in and nights), or null. */
function stayOf(params: Record<string, unknown>): { checkIn: string; checkOut: string } | null {
  const checkIn = typeof params.checkIn === 'string' ? params.checkIn : null;
  if (!checkIn || Number.isNaN(dayOf(checkIn))) return null;
  if (typeof params.checkOut === 'string' && !Number.isNaN(dayOf(params.checkOut))) {
    return { checkIn, checkOut: params.checkOut };
  }
  const nights = Number(params.nights);
  return Number.isInteger(nights) && nights > 0
    ? { checkIn, checkOut: isoOf(dayOf(checkIn) + nights * DAY_MS) }
    : null;
}

/** The scripted answer for one stay: its one room is available when every night is open. */
export function scriptedStayAnswer(open: ReadonlySet<string>, stay: { checkIn: string; checkOut: string }) {
  let available = dayOf(stay.checkOut) > dayOf(stay.checkIn);
  for (let d = dayOf(stay.checkIn); d < dayOf(stay.checkOut); d += DAY_MS) available &&= open.has(isoOf(d));
  const rooms = [{ code: 'LV', name: 'Lagoon View', available, remaining: available ? 2 : 0, price: 689 }];
  return { ...stay, rooms, anyAvailable: available };
}

/** The scripted per-night answer from `from` up to (not including) `to`, at most 400 nights. */
export function scriptedNights(open: ReadonlySet<string>, from: string, to: string) {
  const nights = [];
  for (let d = dayOf(from); d < dayOf(to) && nights.length < 400; d += DAY_MS) {
    nights.push({ date: isoOf(d), available: open.has(isoOf(d)), price: 689 });
  }
  return { nights };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const model = { openProbability: options.openProbability ?? 0.08, rooms: options.rooms ?? 4 };
  const stats: SimulatorStats = { requests: 0, byPath: {}, concurrent: 0, maxConcurrent: 0 };
  let open: Set<string> | null = options.openNights ? new Set(options.openNights) : null;
  const stayCounts = new Map<string, number>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    stats.requests++;
    stats.byPath[url.pathname] = (stats.byPath[url.pathname] ?? 0) + 1;
    stats.concurrent++;
    stats.maxConcurrent = Math.max(stats.maxConcurrent, stats.concurrent);
    try {
      if (url.pathname === '/health') return send(res, 200, { status: 'ok' });
      if (url.pathname === '/stats') return send(res, 200, stats);
      if (url.pathname !== '/availability' && url.pathname !== '/nights') {
        return send(res, 404, { message: 'Not found' });
      }
      const params: Record<string, unknown> = { ...Object.fromEntries(url.searchParams) };
      if (req.method !== 'GET' && req.method !== 'HEAD') Object.assign(params, await readBody(req));
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      if (url.pathname === '/nights') {
        const from = String(params.from ?? params.checkIn ?? '');
        const to = String(params.to ?? params.checkOut ?? '');
        if (Number.isNaN(dayOf(from)) || Number.isNaN(dayOf(to))) {
          return send(res, 400, { message: 'from and to must be dates' });
        }
        return send(res, 200, scriptedNights(open ?? new Set(), from, to));
      }
      const stay = open ? stayOf(params) : null;
      if (open && stay) {
        const key = `${stay.checkIn}/${stay.checkOut}`;
        stayCounts.set(key, (stayCounts.get(key) ?? 0) + 1);
        return send(res, 200, scriptedStayAnswer(open, stay));
      }
      send(res, 200, availability(seed, params, now(), model));
    } finally {
      stats.concurrent--;
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    stats: () => ({ ...stats, byPath: { ...stats.byPath } }),
    openNights(dates) {
      open = new Set(dates);
    },
    stayRequests: () => new Map(stayCounts),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4100' },
      host: { type: 'string', default: '127.0.0.1' },
      seed: { type: 'string', default: '1' },
      'latency-ms': { type: 'string', default: '0' },
      'open-probability': { type: 'string', default: '0.08' },
      rooms: { type: 'string', default: '4' },
      'open-nights': { type: 'string' },
    },
  });
  const sim = await startSimulator({
    port: Number(values.port),
    host: values.host,
    seed: Number(values.seed),
    latencyMs: Number(values['latency-ms']),
    openProbability: Number(values['open-probability']),
    rooms: Number(values.rooms),
    ...(values['open-nights'] === undefined
      ? {}
      : { openNights: values['open-nights'].split(',').filter(Boolean) }),
  });
  // One JSON line first, so a parent process (the benchmark) can read the address.
  console.log(JSON.stringify({ simulator: sim.url, seed: Number(values.seed) }));
  const stop = () => void sim.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
