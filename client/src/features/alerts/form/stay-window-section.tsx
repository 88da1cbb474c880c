import { Checkbox, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  countStays,
  localToday,
  MAX_STAYS_PER_ALERT,
  stayWindowProblem,
  stayWindowSchema,
  type Weekday,
  weekdayNames,
} from '@resort/shared';
import { type AlertForm, type StayWindowValues, startingWindow } from './alert-form-model.ts';
import { toStayWindow } from './alert-form-payload.ts';

const weekdayLabels: Record<Weekday, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};
const weekOrder: Weekday[] = [...weekdayNames.slice(1), weekdayNames[0]];

/** What the window means before saving: the stay count, or why it cannot be watched. */
export function stayCountText(values: StayWindowValues, today: string): { text: string; problem: boolean } {
  const parsed = stayWindowSchema.safeParse(toStayWindow(values));
  if (!parsed.success) return { text: parsed.error.issues[0]?.message ?? '', problem: true };
  const problem = stayWindowProblem([parsed.data], today);
  if (problem) return { text: problem, problem: true };
  const count = countStays([parsed.data], today);
  return {
    text: `This window means ${count} ${count === 1 ? 'stay' : 'stays'} (at most ${MAX_STAYS_PER_ALERT}).`,
    problem: false,
  };
}

/**
 * Flexible dates, on a template that declares its stay: one window (first check-in day, last
 * check-out day, shortest and longest stay, arrival days) watched instead of the stay fields, with
 * the number of stays it means shown as it is typed.
 */
export function StayWindowSection({ form }: { form: AlertForm }) {
  const window = form.getValues().stayWindow;
  const set = <K extends keyof StayWindowValues>(key: K, value: StayWindowValues[K]) => {
    form.setFieldValue(`stayWindow.${key}`, value as never);
    form.clearFieldError('stayWindow');
  };
  const count = window ? stayCountText(window, localToday()) : null;
  return (
    <Stack gap="sm">
      <Switch
        label="Flexible dates"
        description="Watch every stay in a window of dates instead of one check-in and check-out."
        checked={window !== null}
        onChange={(event) => {
          form.setFieldValue('stayWindow', event.currentTarget.checked ? startingWindow(new Date()) : null);
          form.clearFieldError('stayWindow');
        }}
      />
      {window ? (
        <Stack gap="sm" role="group" aria-label="Flexible dates">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="First check-in"
              description="YYYY-MM-DD"
              value={window.start}
              onChange={(e) => set('start', e.currentTarget.value)}
            />
            <TextInput
              label="Last check-out"
              description="YYYY-MM-DD"
              value={window.end}
              onChange={(e) => set('end', e.currentTarget.value)}
            />
            {(
              [
                ['minNights', 'Shortest stay (nights)'],
                ['maxNights', 'Longest stay (nights)'],
              ] as const
            ).map(([key, label]) => (
              <NumberInput
                key={key}
                label={label}
                min={1}
                max={30}
                value={window[key]}
                onChange={(v) => set(key, v)}
              />
            ))}
          </SimpleGrid>
          <Checkbox.Group
            label="Arrival days"
            description="None ticked: any day."
            value={window.arrivalWeekdays}
            onChange={(days) => set('arrivalWeekdays', days as Weekday[])}
          >
            <Group gap="sm" mt={4}>
              {weekOrder.map((day) => (
                <Checkbox key={day} value={day} label={weekdayLabels[day]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Text
            size="sm"
            role="status"
            aria-live="polite"
            c={count?.problem || form.errors.stayWindow ? 'red.8' : undefined}
            data-testid="stay-count"
          >
            {form.errors.stayWindow ?? count?.text}
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
