import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

export interface TestProxy {
  host: string;
  port: number;
  /** Tunnels opened (CONNECT requests or SOCKS5 connects that reached the target). */
  readonly connections: number;
  /** Destinations asked for, as host:port, in order. */
  readonly destinations: readonly string[];
  /** Sockets still open on either side of the proxy. */
  readonly openSockets: number;
  close(): Promise<void>;
}

interface Credentials {
  username: string;
  password: string;
}

function splice(client: net.Socket, upstream: net.Socket, sockets: Set<net.Socket>): void {
  sockets.add(client).add(upstream);
  client.on('close', () => sockets.delete(client));
  upstream.on('close', () => sockets.delete(upstream));
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
}

/** A real HTTP CONNECT proxy on loopback, with optional basic authentication. */
export async function startConnectProxy(options: { credentials?: Credentials } = {}): Promise<TestProxy> {
  let connections = 0;
  const destinations: string[] = [];
  const sockets = new Set<net.Socket>();
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : undefined;
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if (expected && req.headers['proxy-authorization'] !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const target = new URL(`http://${req.url}`);
    destinations.push(`${target.hostname}:${target.port}`);
    const upstream = net.connect(Number(target.port), target.hostname.replace(/^\[|\]$/g, ''), () => {
      connections++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      splice(client, upstream, sockets);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    get connections() {
      return connections;
    },
    destinations,
    get openSockets() {
      return sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads exactly n bytes at a time from a socket that speaks a binary handshake. */
function byteReader(socket: net.Socket) {
  let buffered = Buffer.alloc(0);
  let waiting: { n: number; resolve: (b: Buffer) => void } | null = null;
  const flush = () => {
    if (waiting && buffered.length >= waiting.n) {
      const { n, resolve } = waiting;
      waiting = null;
      const chunk = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      resolve(chunk);
    }
  };
  const onData = (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    flush();
  };
  socket.on('data', onData);
  return {
    read(n: number): Promise<Buffer> {
      return new Promise((resolve) => {
        waiting = { n, resolve };
        flush();
      });
    },
    /** Stops reading and hands back what arrived beyond the handshake. */
    release(): Buffer {
      socket.off('data', onData);
      return buffered;
    },
  };
}

/**
 * A real SOCKS5 proxy (RFC 1928) on loopback requiring username/password auth (RFC 1929).
 * It resolves domain names itself, as SOCKS5 proxies do.
 */
export async function startSocks5Proxy(credentials: Credentials): Promise<TestProxy> {
  let connections = 0;
  const destinations: string[] = [];
  const sockets = new Set<net.Socket>();

  async function handshake(client: net.Socket): Promise<void> {
    const reader = byteReader(client);
    const [, methodCount] = await reader.read(2);
    const methods = await reader.read(methodCount!);
    if (!methods.includes(0x02)) {
      client.end(Buffer.from([0x05, 0xff]));
      return;
    }
    client.write(Buffer.from([0x05, 0x02]));
    const [, userLength] = await reader.read(2);
    const username = (await reader.read(userLength!)).toString();
    const [passwordLength] = await reader.read(1);
    const password = (await reader.read(passwordLength!)).toString();
    if (username !== credentials.username || password !== credentials.password) {
      client.end(Buffer.from([0x01, 0x01]));
      return;
    }
    client.write(Buffer.from([0x01, 0x00]));
    const [, command, , addressType] = await reader.read(4);
    let host: string;
    if (addressType === 0x01) host = [...(await reader.read(4))].join('.');
    else if (addressType === 0x03) host = (await reader.read((await reader.read(1))[0]!)).toString();
    else {
      const raw = await reader.read(16);
      host = Array.from({ length: 8 }, (_, i) => raw.readUInt16BE(i * 2).toString(16)).join(':');
    }
    const port = (await reader.read(2)).readUInt16BE(0);
    const failure = Buffer.from([0x05, 0x01, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
    if (command !== 0x01) {
      client.end(failure);
      return;
    }
    destinations.push(`${host}:${port}`);
    const upstream = net.connect(port, host, () => {
      connections++;
      client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
      const rest = reader.release();
      if (rest.length) upstream.write(rest);
      splice(client, upstream, sockets);
    });
    upstream.on('error', () => client.end(failure));
  }

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    handshake(client).catch(() => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    get connections() {
      return connections;
    },
    destinations,
    get openSockets() {
      return sockets.size;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A broken HTTP proxy on loopback: it accepts the connection, reads the CONNECT line and closes
 * without a word. Counts every connection made to it.
 */
export async function startDroppingProxy(): Promise<{
  host: string;
  port: number;
  readonly connections: number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.once('data', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
