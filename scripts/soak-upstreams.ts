/**
 * The soak's loopback upstreams (scripts/soak.ts). Each listens on its own port, so the engine treats
 * each as its own host (per-host limits, back-off):
 * - healthy: one room per alert (`?ref=N`) that opens and closes on a known script (HealthyScript),
 *   so the soak knows which notifications must arrive;
 * - nul: a room open in every other 10-second slot, its strings holding U+0000 in one slot of three;
 * - hanging: accepts connections and never answers;
 * - odd: a 10-second cycle of 200 open, 500 HTML, 500 binary with NUL bytes, 500 empty, 200 closed.
 */
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

export interface Opening {
  ref: number;
  openAt: number;
  closeAt: number;
}

/** Openings recur every CYCLE intervals and last OPEN_FOR intervals: three polls open, three closed. */
const CYCLE = 6;
const OPEN_FOR = 3;

/**
 * When each healthy alert's room is open. Openings sit half an interval after a due time of the
 * alert's grid (phase + k × interval, read after its first poll), so the first poll after an opening
 * sees it half an interval later and a notification later than one interval means a missed or late
 * poll. Alerts are staggered over the cycle by their ref. Only openings that start in [from, until −
 * interval) exist, so every opening can be polled before the run stops.
 */
export class HealthyScript {
  private phases = new Map<number, number>();
  private from = Number.POSITIVE_INFINITY;
  private until = Number.NEGATIVE_INFINITY;

  readonly intervalMs: number;

  constructor(intervalMs: number) {
    this.intervalMs = intervalMs;
  }

  start(phases: Map<number, number>, from: number, until: number): void {
    this.phases = phases;
    this.from = from;
    this.until = until;
  }

  /** Every scripted opening of one alert (by ref). */
  openings(ref: number): Opening[] {
    const phase = this.phases.get(ref);
    if (phase === undefined) return [];
    const i = this.intervalMs;
    const out: Opening[] = [];
    for (let k = Math.ceil((this.from - phase - i / 2) / i); ; k++) {
      const openAt = phase + i / 2 + k * i;
      if (openAt >= this.until - i) break;
      if ((((k - ref) % CYCLE) + CYCLE) % CYCLE === 0)
        out.push({ ref, openAt, closeAt: openAt + OPEN_FOR * i });
    }
    return out;
  }

  allOpenings(): Opening[] {
    return [...this.phases.keys()].flatMap((ref) => this.openings(ref));
  }

  isOpen(ref: number, at: number): boolean {
    return this.openings(ref).some((o) => o.openAt <= at && at < o.closeAt);
  }
}

export interface Upstream {
  url: string;
  requests: number;
  close(): Promise<void>;
}

const slot = (ms: number) => Math.floor(ms / 10_000);

function reply(res: http.ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

/** A loopback HTTP upstream answering every request through `handle`. */
async function httpUpstream(
  handle: (ref: number, res: http.ServerResponse, now: number) => void,
): Promise<Upstream> {
  const server = http.createServer((req, res) => {
    upstream.requests++;
    const ref = Number(new URL(req.url ?? '/', 'http://upstream').searchParams.get('ref'));
    req.resume();
    handle(ref, res, Date.now());
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const upstream: Upstream = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    requests: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return upstream;
}

const rooms = (open: boolean, name: string) =>
  JSON.stringify({
    anyAvailable: open,
    rooms: [{ code: 'R1', name, available: open, remaining: open ? 2 : 0 }],
  });

export function startHealthyUpstream(script: HealthyScript): Promise<Upstream> {
  return httpUpstream((ref, res, now) =>
    reply(res, 200, 'application/json', rooms(script.isOpen(ref, now), 'Garden View')),
  );
}

export function startNulUpstream(): Promise<Upstream> {
  return httpUpstream((_ref, res, now) => {
    const nul = slot(now) % 3 === 1;
    // Legal JSON: the escape \u0000 in a string, which PostgreSQL's text and jsonb cannot hold.
    reply(res, 200, 'application/json', rooms(slot(now) % 2 === 0, nul ? 'Lagoon\u0000View' : 'Lagoon View'));
  });
}

/** A gzip-like error page: NUL bytes and invalid UTF-8. */
export const binaryErrorBody = Buffer.concat([
  Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]),
  Buffer.from('upstream\0error\0', 'latin1'),
  Buffer.from([0xff, 0xfe, 0x00, 0xc3]),
]);

export function startOddUpstream(): Promise<Upstream> {
  return httpUpstream((_ref, res, now) => {
    switch (slot(now) % 5) {
      case 0:
        return reply(res, 200, 'application/json', rooms(true, 'Club Level'));
      case 1:
        return reply(
          res,
          500,
          'text/html',
          '<!doctype html><title>500</title><h1>Internal Server Error</h1>',
        );
      case 2:
        return reply(res, 500, 'application/octet-stream', binaryErrorBody);
      case 3:
        return reply(res, 500, 'application/json', '');
      default:
        return reply(res, 200, 'application/json', rooms(false, 'Club Level'));
    }
  });
}

/**
 * Accepts connections, reads what comes and never answers. Each request comes on its own connection
 * (none is ever answered), so `requests` counts connections; `open()` those held now.
 */
export async function startHangingUpstream(): Promise<Upstream & { open(): number }> {
  const sockets = new Set<net.Socket>();
  let requests = 0;
  const server = net.createServer((socket) => {
    requests++;
    sockets.add(socket);
    socket.resume();
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    get requests() {
      return requests;
    },
    open: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
