import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies defaults and derives flags', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embeddedDatabase).toBe(true);
    expect(c.smtpConfigured).toBe(false);
    expect(c.OUTBOUND_ALLOWLIST).toEqual([]);
  });

  it('parses lists and booleans', () => {
    const c = loadConfig({
      OUTBOUND_ALLOWLIST: '127.0.0.1, sim.local ,',
      RUN_WORKER: 'false',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(c.OUTBOUND_ALLOWLIST).toEqual(['127.0.0.1', 'sim.local']);
    expect(c.RUN_WORKER).toBe(false);
    expect(c.embeddedDatabase).toBe(false);
  });

  it('names the variable in one line when a value is bad', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(
      'Invalid configuration: PORT: expected a whole number between 0 and 65535 (got "abc")',
    );
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/^Invalid configuration: PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: expected a postgres:\/\/ connection URL \(got "\[redacted\]"\)/,
    );
  });

  it('accepts CORS origins only as * or exact origins', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).CORS_ORIGINS,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
    for (const bad of [
      'app.example.com',
      'https://app.example.com/',
      'ftp://x.example',
      'https://a.example/path',
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/^Invalid configuration: CORS_ORIGINS: /);
    }
  });

  it('accepts DNS servers as addresses with optional ports', () => {
    const servers = '1.1.1.1, 127.0.0.1:5353, ::1, [::1]:53';
    expect(loadConfig({ OUTBOUND_DNS_SERVERS: servers }).OUTBOUND_DNS_SERVERS).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '::1',
      '[::1]:53',
    ]);
    for (const bad of ['dns.example.com', '1.1.1.1:99999', '[::1]:x']) {
      expect(() => loadConfig({ OUTBOUND_DNS_SERVERS: bad }), bad).toThrow(/OUTBOUND_DNS_SERVERS/);
    }
  });

  it('enforces cross-field rules', () => {
    expect(() => loadConfig({ SMS_API_URL: 'https://sms.example.com' })).toThrow(
      /SMS_API_URL: SMS_API_URL needs SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM/,
    );
  });
});
