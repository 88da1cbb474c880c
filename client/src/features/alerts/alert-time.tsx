import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs`, so relative times stay true while a page is open. */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const exactFormats = new Map<string, Intl.DateTimeFormat>();

/** "3 minutes ago", "in 20 seconds", in the browser's locale. */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const diff = Date.parse(iso) - now;
  let format = relativeFormats.get(locale ?? '');
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale ?? '', format);
  }
  for (const [unit, ms] of units) {
    if (Math.abs(diff) >= ms || unit === 'second') return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, 'second');
}

/** The exact moment with its time zone: "Jan 2, 2027, 10:04:05 AM EST". */
export function exactTime(iso: string, locale?: string): string {
  let format = exactFormats.get(locale ?? '');
  if (!format) {
    // dateStyle/timeStyle cannot be combined with timeZoneName: the parts are named one by one.
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    exactFormats.set(locale ?? '', format);
  }
  return format.format(new Date(iso));
}

/**
 * A relative time; hovering shows the exact time with its zone. `now` ticks slowly, so a render
 * caused by fresh data reads the clock itself; a moment that has passed (`past`) is never shown as
 * still to come, whatever a small clock difference says.
 */
export function TimeAgo({ iso, now, past = false }: { iso: string; now: number; past?: boolean }) {
  const current = Math.max(now, Date.now());
  const shown = past ? new Date(Math.min(Date.parse(iso), current)).toISOString() : iso;
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(shown, current)}
    </time>
  );
}
