import net, { isIP } from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';
import { OutboundError } from './outbound-error.ts';

/** The longest proxy answer to CONNECT we read before giving up on it. */
const MAX_CONNECT_ANSWER_BYTES = 16 * 1024;

interface TunnelProxy {
  protocol: 'http' | 'https';
  host: string;
  port: number;
  username?: string | null;
  password?: string | null;
}

const bracketed = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/**
 * A connector that opens one HTTP CONNECT tunnel through an http or https proxy and, for an https
 * target, runs TLS over it: one attempt, connect + CONNECT + TLS within `timeoutMs`. Every failure is
 * an OutboundError of kind 'proxy' (or the TLS error of the target), which undici hands to the request
 * instead of reconnecting: a proxy that drops the CONNECT line costs one connection per request, not a
 * reconnect storm (undici's own ProxyAgent retried a tunnel that closed, thousands of times a second).
 */
export function httpTunnelConnector(proxy: TunnelProxy, timeoutMs: number): buildConnector.connector {
  const label = `${proxy.protocol} proxy ${bracketed(proxy.host)}:${proxy.port}`;
  const credentials = proxy.username
    ? `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`
    : '';

  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const target = `${bracketed(options.hostname)}:${port}`;
    const fail = (message: string) => new OutboundError('proxy', `The ${label} failed: ${message}`);
    let settled = false;
    let current: net.Socket;
    const finish = (error: Error | null, socket?: net.Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error || !socket) {
        current.destroy();
        callback(error ?? fail('no tunnel'), null);
      } else {
        callback(null, socket);
      }
    };
    const timer = setTimeout(() => finish(fail(`no tunnel to ${target} within ${timeoutMs} ms.`)), timeoutMs);

    const raw =
      proxy.protocol === 'https'
        ? tls.connect({
            host: proxy.host,
            port: proxy.port,
            ...(isIP(proxy.host) ? {} : { servername: proxy.host }),
            ALPNProtocols: ['http/1.1'],
          })
        : net.connect({ host: proxy.host, port: proxy.port });
    current = raw;
    raw.once(proxy.protocol === 'https' ? 'secureConnect' : 'connect', () => {
      raw.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${credentials}\r\n`);
    });
    raw.once('error', (error) => finish(fail(error.message)));
    raw.once('close', () => finish(fail('it closed the connection before opening a tunnel.')));

    let answer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end === -1) {
        if (answer.length > MAX_CONNECT_ANSWER_BYTES) finish(fail('its answer to CONNECT is too long.'));
        return;
      }
      raw.off('data', onData);
      const statusLine = answer.subarray(0, answer.indexOf('\r\n')).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      if (status !== '200') {
        finish(fail(`it answered CONNECT with "${statusLine.slice(0, 100)}".`));
        return;
      }
      const early = answer.subarray(end + 4);
      if (early.length > 0) raw.unshift(early);
      if (options.protocol !== 'https:') {
        finish(null, raw);
        return;
      }
      const servername = options.servername || (isIP(options.hostname) ? undefined : options.hostname);
      const secure = tls.connect({
        socket: raw,
        ...(servername ? { servername } : {}),
        ALPNProtocols: ['http/1.1'],
      });
      current = secure;
      secure.once('secureConnect', () => finish(null, secure));
      secure.once('error', (error) => finish(error));
    };
    raw.on('data', onData);
  };
}
