import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { AlertInsight } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { AlertStatusBadge } from '@/components/status-badge.tsx';
import { AlertActivity } from '@/features/alerts/alert-activity.tsx';
import { alertDatesText, alertDisplayTitle } from '@/features/alerts/alert-text.ts';
import { useNow } from '@/features/alerts/alert-time.tsx';
import { useViewer } from '@/session/use-session.ts';
import { AlertNotifications } from './alert-notifications.tsx';
import { AlertTimeline } from './alert-timeline.tsx';
import { LastAnswer } from './last-answer.tsx';
import { PollLog } from './poll-log.tsx';
import { RuleExplanation } from './rule-explanation.tsx';
import { SnoozeControl } from './snooze-control.tsx';
import { StayCalendar } from './stay-calendar.tsx';

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={id}>
      <Title order={4} id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function CheckNow({ insight, admin }: { insight: AlertInsight; admin: boolean }) {
  const api = useApi();
  const now = useNow(1000);
  const [note, setNote] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const check = useMutation(admin ? api.alertInsight.adminCheckNow() : api.alertInsight.checkNow());
  const waitUntil = insight.checkAvailableAt ? Date.parse(insight.checkAvailableAt) : 0;
  const waiting = waitUntil > now;
  const polled = insight.alert.activity.nextCheckAt !== null;
  async function run() {
    setNote(null);
    try {
      await check.mutateAsync({ id: insight.alert.id });
      setNote({ tone: 'ok', text: 'Checking now: the result shows here in a moment.' });
    } catch (err) {
      setNote({ tone: 'error', text: errorMessage(err, 'Unable to check the alert now.') });
    }
  }
  return (
    <Stack gap={4} align="flex-end">
      <Button onClick={run} loading={check.isPending} disabled={!polled || waiting}>
        {waiting ? `Check again in ${Math.ceil((waitUntil - now) / 1000)} s` : 'Check now'}
      </Button>
      {note ? (
        <Text size="xs" c={note.tone === 'ok' ? 'dimmed' : 'red'} role="status">
          {note.text}
        </Text>
      ) : null}
    </Stack>
  );
}

/** /alerts/{id}: what one alert saw, when and why; kept current by live events. */
export function AlertPageScreen({ alertId }: { alertId: string }) {
  const api = useApi();
  const viewer = useViewer();
  const admin = viewer.isAdmin;
  const insight = useQuery(api.alertInsight.get(alertId, admin));
  const now = useNow();
  if (insight.isPending) return <LoadingState label="Loading the alert…" />;
  if (insight.error) return <ErrorState message={errorMessage(insight.error, 'Unable to load the alert.')} />;
  const data = insight.data;
  const alert = data.alert;
  return (
    <Stack gap="md">
      <PageHeader
        title={alertDisplayTitle(alert)}
        subtitle={`${alert.template.name}${alert.partyName ? ` · ${alert.partyName}` : ''}`}
        actions={
          <Group align="flex-start" gap="md">
            {alert.userId === viewer.userId ? (
              <SnoozeControl alertId={alert.id} snoozedUntil={alert.snoozedUntil} />
            ) : null}
            <CheckNow insight={data} admin={admin} />
          </Group>
        }
      />
      <Card withBorder padding="md">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Dates polled
            </Text>
            <Text fw={600} data-testid="alert-page-dates">
              {alertDatesText(alert)}
            </Text>
          </Stack>
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Status
            </Text>
            <div data-testid="alert-page-status">
              <AlertStatusBadge status={alert.status} />
            </div>
          </Stack>
          <AlertActivity alert={alert} now={now} />
        </Group>
      </Card>
      {alert.stayWindow ? (
        <Section title="Availability calendar" id="alert-calendar-title">
          <StayCalendar windows={alert.stayWindow} states={alert.stayStates} />
        </Section>
      ) : null}
      <Section title="Timeline" id="alert-timeline-title">
        <AlertTimeline timeline={data.timeline} />
      </Section>
      <Section title="Why: the latest evaluation" id="alert-explanation-title">
        <RuleExplanation explanation={data.explanation} />
      </Section>
      <Section title="Notifications" id="alert-notifications-title">
        <AlertNotifications notifications={data.notifications} />
      </Section>
      <Section title="Last answer" id="alert-answer-title">
        <LastAnswer answer={data.lastAnswer} />
      </Section>
      <Section title="Poll log" id="alert-polls-title">
        <PollLog polls={data.polls} />
      </Section>
    </Stack>
  );
}
