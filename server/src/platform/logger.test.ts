import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

/** A destination that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('createLogger', () => {
  it('writes one JSON object a line when the output is not a terminal', () => {
    const out = sink();
    createLogger('info', { destination: out.stream, pretty: false }).info({ alertId: 'a1' }, 'engine poll');
    const line = JSON.parse(out.text().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'engine poll', alertId: 'a1', service: 'resort-alerts' });
  });

  it('writes human-readable lines on a terminal, secrets still redacted', async () => {
    const out = sink();
    const log = createLogger('info', { destination: out.stream, pretty: true });
    log.info({ alertId: 'a1', user: { password: 'hunter2' } }, 'engine poll');
    log.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const text = out.text();
    expect(text).toContain('INFO');
    expect(text).toContain('engine poll');
    expect(text).toContain('alertId: "a1"');
    expect(text).not.toContain('hunter2');
    expect(() => JSON.parse(text.trim())).toThrow();
  });
});
