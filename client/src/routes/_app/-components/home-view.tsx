import { Card, Group, SegmentedControl, Text } from '@mantine/core';
import { useState } from 'react';
import { ButtonLink } from '../../../components/links.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { EmptyState } from '../../../components/states.tsx';
import type { SampleAlert } from '../../../sample/sample-data.ts';
import { sampleStatuses, sampleStatusLabels } from '../../../sample/sample-labels.ts';
import { useSampleState, useSampleStore } from '../../../sample/sample-store.ts';
import { SampleAlertDrawer } from './sample-alert-drawer.tsx';
import { SampleAlertTable } from './sample-alert-table.tsx';
import { SampleNotice } from './sample-notice.tsx';
import { toast } from './toast.ts';

/** The local Home view: a board of sample alerts with the sample edit drawer. */
export function HomeView() {
  const { alerts } = useSampleState();
  const store = useSampleStore();
  const [status, setStatus] = useState<string>('all');
  const [editing, setEditing] = useState<SampleAlert | null>(null);
  const shown = status === 'all' ? alerts : alerts.filter((a) => a.status === status);

  return (
    <>
      <PageHeader
        title="Home"
        subtitle="A preview of the trip board: resorts and parties you are watching."
        actions={
          <ButtonLink to="/alerts" variant="light">
            Your alerts
          </ButtonLink>
        }
      />
      <SampleNotice />
      <Card withBorder>
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Text fw={600}>Trip board</Text>
          <SegmentedControl
            size="xs"
            value={status}
            onChange={setStatus}
            data={[
              { value: 'all', label: 'All' },
              ...sampleStatuses.map((s) => ({ value: s, label: sampleStatusLabels[s] })),
            ]}
          />
        </Group>
        {shown.length === 0 ? (
          <EmptyState message="No sample alerts with this status." />
        ) : (
          <SampleAlertTable alerts={shown} onEdit={setEditing} />
        )}
      </Card>
      <SampleAlertDrawer
        alert={editing}
        onClose={() => setEditing(null)}
        onSave={(alert) => {
          store.updateAlert(alert);
          setEditing(null);
          toast(`Saved ${alert.label}.`);
        }}
      />
    </>
  );
}
