import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { SocksClient } from 'socks';
import { Agent, type buildConnector, type Dispatcher } from 'undici';
import { httpTunnelConnector } from './http-tunnel.ts';

export interface ProxyTarget {
  id?: string;
  protocol: 'http' | 'https' | 'socks5';
  host: string;
  port: number;
  username?: string | null;
  password?: string | null;
}

/** How many proxy dispatchers stay open; the least recently used one beyond this is closed. */
const MAX_PROXY_DISPATCHERS = 256;

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export function describeProxy(proxy: ProxyTarget): string {
  return `${proxy.protocol} proxy ${hostForUrl(proxy.host)}:${proxy.port}`;
}

/**
 * A connector that opens a SOCKS5 tunnel (with username/password auth when configured) to the target
 * and, for https, runs TLS over it. The proxy resolves the target's name (like socks5h).
 */
function socksConnector(proxy: ProxyTarget, timeoutMs: number): buildConnector.connector {
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    SocksClient.createConnection({
      command: 'connect',
      timeout: timeoutMs,
      destination: { host: options.hostname, port },
      proxy: {
        host: proxy.host,
        port: proxy.port,
        type: 5,
        ...(proxy.username ? { userId: proxy.username, password: proxy.password ?? '' } : {}),
      },
    }).then(
      ({ socket }) => {
        if (options.protocol !== 'https:') {
          callback(null, socket);
          return;
        }
        const servername = options.servername || (isIP(options.hostname) ? undefined : options.hostname);
        const secure = tls.connect({
          socket,
          ...(servername ? { servername } : {}),
          ALPNProtocols: ['http/1.1'],
        });
        let settled = false;
        secure.once('secureConnect', () => {
          if (!settled) callback(null, secure);
          settled = true;
        });
        secure.once('error', (error) => {
          if (!settled) callback(error, null);
          settled = true;
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}

/**
 * One agent per proxy whose connector opens the tunnel itself, once per connection, within the
 * outbound timeout; a tunnel that fails fails the request (a proxy failure), never a reconnect loop.
 */
function createProxyDispatcher(proxy: ProxyTarget, connectTimeoutMs: number): Dispatcher {
  const connect =
    proxy.protocol === 'socks5'
      ? socksConnector(proxy, connectTimeoutMs)
      : httpTunnelConnector({ ...proxy, protocol: proxy.protocol }, connectTimeoutMs);
  return new Agent({ connect });
}

function proxyKey(proxy: ProxyTarget): string {
  return JSON.stringify([
    proxy.protocol,
    proxy.host.toLowerCase(),
    proxy.port,
    proxy.username ?? '',
    proxy.password ?? '',
  ]);
}

/**
 * One direct agent (whose connections resolve names through the guarded lookup) and one cached
 * dispatcher per proxy, so connections to a proxy are reused across requests.
 */
export function createDispatcherCache(options: { lookup: LookupFunction; connectTimeoutMs: number }) {
  const direct = new Agent({ connect: { lookup: options.lookup, timeout: options.connectTimeoutMs } });
  const proxies = new Map<string, Dispatcher>();

  return {
    get(proxy: ProxyTarget | null | undefined): Dispatcher {
      if (!proxy) return direct;
      const key = proxyKey(proxy);
      let dispatcher = proxies.get(key);
      if (dispatcher) {
        // Re-insert so the Map's order is least recently used first.
        proxies.delete(key);
      } else {
        dispatcher = createProxyDispatcher(proxy, options.connectTimeoutMs);
      }
      proxies.set(key, dispatcher);
      if (proxies.size > MAX_PROXY_DISPATCHERS) {
        const [oldestKey, oldest] = proxies.entries().next().value as [string, Dispatcher];
        proxies.delete(oldestKey);
        // close() lets requests in flight finish before the sockets go.
        void oldest.close().catch(() => undefined);
      }
      return dispatcher;
    },
    /**
     * Ends every connection at once. Called when the process stops, after its drain: a request still
     * open then (an upstream that never answers) is dropped, since waiting for it would hold the
     * stop until the forced exit.
     */
    async close(): Promise<void> {
      const all = [direct, ...proxies.values()];
      proxies.clear();
      await Promise.allSettled(all.map((d) => d.destroy()));
    },
  };
}
