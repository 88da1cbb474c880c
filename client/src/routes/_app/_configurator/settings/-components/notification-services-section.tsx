import { Card, Divider, Skeleton, Text } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../../../api/api-context.tsx';
import { errorMessage } from '../../../../../api/http.ts';
import { ErrorState } from '../../../../../components/states.tsx';
import { NotificationServiceForm } from './notification-service-form.tsx';
import { NotificationServiceList } from './notification-service-list.tsx';

export function NotificationServicesSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const summary = useQuery(api.account.summary());
  const create = useMutation(api.notificationServices.create());
  const test = useMutation(api.notificationServices.test());
  const services = summary.data?.notificationServices ?? [];

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
          <NotificationServiceList services={services} />
          <Divider my="md" label="Add a service" labelPosition="left" />
          <NotificationServiceForm
            configuredTypes={services.map((s) => s.type)}
            onCreate={async (payload) => {
              await create.mutateAsync(payload);
              await queryClient.invalidateQueries({ queryKey: api.account.summary().queryKey });
            }}
            onTest={(payload) => test.mutateAsync(payload)}
          />
        </>
      )}
    </Card>
  );
}
