import { SimpleGrid, Stack, Text } from '@mantine/core';
import {
  describeStay,
  expandStayWindows,
  localToday,
  type Stay,
  type StayState,
  type StayStates,
  type StayWindow,
  stayKey,
} from '@resort/shared';
import { WholeBadge } from '@/components/whole-badge.tsx';

const dayWords = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** One check-in day of the window: its state from the latest results and the stays that opened. */
export interface CheckInDay {
  checkIn: string;
  state: StayState;
  open: Stay[];
}

const badge: Record<StayState, { color: string; label: string }> = {
  open: { color: 'green', label: 'Open' },
  closed: { color: 'gray', label: 'Not open' },
  unchecked: { color: 'yellow', label: 'Not checked' },
};

/**
 * The window's check-in days from today on, each open (some stay from it is open), not open (all
 * its stays checked, none open) or not checked (some stay not checked yet, none open).
 */
export function checkInDays(
  windows: readonly StayWindow[],
  states: StayStates | null,
  today: string,
): CheckInDay[] {
  const known = new Map((states?.stays ?? []).map((s) => [stayKey(s), s.state]));
  const days = new Map<string, CheckInDay>();
  for (const stay of expandStayWindows(windows, today)) {
    const state = known.get(stayKey(stay)) ?? 'unchecked';
    const day = days.get(stay.checkIn) ?? { checkIn: stay.checkIn, state: 'closed' as StayState, open: [] };
    if (state === 'open') day.open.push(stay);
    if (day.open.length > 0) day.state = 'open';
    else if (state === 'unchecked') day.state = 'unchecked';
    days.set(stay.checkIn, day);
  }
  return [...days.values()];
}

/** The alert page's availability calendar of a flexible-dates alert, current with every poll. */
export function StayCalendar({
  windows,
  states,
}: {
  windows: readonly StayWindow[];
  states: StayStates | null;
}) {
  const days = checkInDays(windows, states, localToday());
  if (days.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No stay of this window is left from today on.
      </Text>
    );
  const open = days.flatMap((d) => d.open);
  return (
    <Stack gap="sm">
      <Text size="sm" aria-live="polite" data-testid="stay-calendar-summary">
        {open.length === 0
          ? `${days.length} check-in days; no stay open${states ? '' : ' (not checked yet)'}.`
          : `Open: ${open.map(describeStay).join('; ')}.`}
      </Text>
      <SimpleGrid
        cols={{ base: 2, xs: 3, sm: 4, md: 7 }}
        spacing="xs"
        component="ul"
        aria-label="Check-in days"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        data-testid="stay-calendar"
      >
        {days.map((day) => (
          <li key={day.checkIn} data-state={day.state}>
            <Stack gap={2} p={6} style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4 }}>
              <Text size="sm" fw={600}>
                {dayWords.format(new Date(`${day.checkIn}T00:00:00Z`)).replace(',', '')}
              </Text>
              <div>
                <WholeBadge color={badge[day.state].color} variant="light">
                  {badge[day.state].label}
                </WholeBadge>
              </div>
              {day.open.length > 0 ? (
                <Text size="xs">{day.open.map((s) => `${s.nights} nights`).join(', ')}</Text>
              ) : null}
            </Stack>
          </li>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
