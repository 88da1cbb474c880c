import { Alert, Card, Divider, Skeleton, Text } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ErrorState } from '@/components/states.tsx';
import {
  NotificationServiceActions,
  type ServiceOutcome,
  ServiceOutcomeText,
} from './notification-service-actions.tsx';
import { NotificationServiceForm } from './notification-service-form.tsx';
import { NotificationServiceList } from './notification-service-list.tsx';

export function NotificationServicesSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const summary = useQuery(api.account.summary());
  const create = useMutation(api.notificationServices.create());
  const test = useMutation(api.notificationServices.test());
  const services = summary.data?.notificationServices ?? [];
  const [outcome, setOutcome] = useState<ServiceOutcome | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: api.account.summary().queryKey });
  const configuredTypes = services.map((s) => s.type);

  return (
    <Card withBorder component="section" aria-labelledby="settings-services">
      <Text fw={600} id="settings-services">
        Notification services
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        Where your alerts reach you. One e-mail, one SMS and one webhook per account; Slack as many as you
        like.
      </Text>
      {summary.isPending ? (
        <Skeleton height={60} />
      ) : summary.isError ? (
        <ErrorState
          message={errorMessage(summary.error, authMessages.loadAccountFailed)}
          onRetry={() => summary.refetch()}
        />
      ) : (
        <>
          {outcome ? (
            <Alert
              color={outcome.tone === 'success' ? 'teal' : 'red'}
              role={outcome.tone === 'error' ? 'alert' : 'status'}
              withCloseButton
              closeButtonLabel="Dismiss message"
              onClose={() => setOutcome(null)}
              mb="md"
            >
              <ServiceOutcomeText outcome={outcome} />
            </Alert>
          ) : null}
          <NotificationServiceList
            services={services}
            actions={(service) => (
              <NotificationServiceActions
                service={service}
                configuredTypes={configuredTypes}
                onOutcome={setOutcome}
                onChanged={refresh}
              />
            )}
          />
          <Divider my="md" label="Add a service" labelPosition="left" />
          <NotificationServiceForm
            configuredTypes={configuredTypes}
            onCreate={async (payload) => {
              await create.mutateAsync(payload);
              await refresh();
            }}
            onTest={(payload) => test.mutateAsync(payload)}
          />
        </>
      )}
    </Card>
  );
}
