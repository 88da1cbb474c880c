import { describe, expect, it } from 'vitest';
import { proxyMessages } from './proxy.schema.ts';
import { parseProxyLine, parseProxyList } from './proxy-import.ts';

describe('parseProxyLine', () => {
  it.each([
    ['10.0.0.1:8080', { host: '10.0.0.1', port: 8080, protocol: 'http', username: null, password: null }],
    [
      'proxy.example.com:1080:socks5',
      { host: 'proxy.example.com', port: 1080, protocol: 'socks5', username: null, password: null },
    ],
    [
      'p.example.com:3128:alice:s3cret',
      { host: 'p.example.com', port: 3128, protocol: 'http', username: 'alice', password: 's3cret' },
    ],
    [
      'p.example.com:443:alice:s3cret:HTTPS',
      { host: 'p.example.com', port: 443, protocol: 'https', username: 'alice', password: 's3cret' },
    ],
    [
      'p.example.com:443:alice:pa:ss:socks5',
      { host: 'p.example.com', port: 443, protocol: 'socks5', username: 'alice', password: 'pa:ss' },
    ],
    [
      '[2001:db8::1]:8080',
      { host: '2001:db8::1', port: 8080, protocol: 'http', username: null, password: null },
    ],
  ])('reads %s', (line, expected) => {
    expect(parseProxyLine(line)).toEqual(expected);
  });

  it.each([
    [':8080', proxyMessages.hostRequired],
    ['bad host:8080', proxyMessages.hostInvalid],
    ['p.example.com:0', proxyMessages.portRange],
    ['p.example.com:65536', proxyMessages.portRange],
    ['p.example.com:http', proxyMessages.portRange],
    ['p.example.com', proxyMessages.importLineFormat],
    ['p.example.com:8080:alice', proxyMessages.importLineFormat],
    ['p.example.com:8080:alice:socks5', proxyMessages.credentialsPair],
    ['p.example.com:8080::secret', proxyMessages.credentialsPair],
    ['[2001:db8::1:8080', proxyMessages.importLineFormat],
  ])('refuses %s', (line, reason) => {
    expect(parseProxyLine(line)).toEqual({ reason });
  });
});

describe('parseProxyList', () => {
  it('numbers every line, skips blanks and comments, and counts repeats within the list', () => {
    const result = parseProxyList(
      'a.example:1\r\n\n# comment\nA.example:1\nb.example:99999\n  c.example:2:u:p  \n',
    );
    expect(result.proxies.map((p) => [p.line, p.host])).toEqual([
      [1, 'a.example'],
      [6, 'c.example'],
    ]);
    expect(result.duplicates).toBe(1);
    expect(result.errors).toEqual([{ line: 5, reason: proxyMessages.portRange, content: 'b.example:99999' }]);
  });
});
