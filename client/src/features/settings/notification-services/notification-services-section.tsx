import { Card, Divider, Skeleton, Text } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { ErrorState } from '@/components/states.tsx';
import { ChannelVerification } from './channel-verification.tsx';
import {
  NotificationServiceActions,
  type ServiceOutcome,
  ServiceOutcomeText,
} from './notification-service-actions.tsx';
import { NotificationServiceForm } from './notification-service-form.tsx';
import { NotificationServiceList, serviceName } from './notification-service-list.tsx';
import { WebPushToggle } from './web-push-toggle.tsx';

export function NotificationServicesSection() {
  const api = useApi();
  const summary = useQuery(api.account.summary());
  const create = useMutation(api.notificationServices.create());
  const test = useMutation(api.notificationServices.test());
  const services = summary.data?.notificationServices ?? [];
  const { feedback: outcome, show: setOutcome, clear: clearOutcome } = useFeedback<ServiceOutcome>();
  const configuredTypes = services.map((s) => s.type);

  return (
    <Card withBorder component="section" aria-labelledby="settings-services">
      <Text fw={600} id="settings-services">
        Notification services
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        Where your alerts reach you. One e-mail, one SMS and one webhook per account; Slack, ntfy, Pushover,
        Telegram, Discord, Teams and browser push as many as you like.
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
          <FeedbackBanner feedback={outcome} onClose={clearOutcome}>
            {outcome ? <ServiceOutcomeText outcome={outcome} /> : null}
          </FeedbackBanner>
          <WebPushToggle services={services} onOutcome={setOutcome} />
          <Divider my="md" />
          <NotificationServiceList
            services={services}
            actions={(service) => (
              <NotificationServiceActions
                service={service}
                configuredTypes={configuredTypes}
                onOutcome={setOutcome}
              />
            )}
            verification={(service, state) => (
              <ChannelVerification
                serviceId={service.id}
                name={serviceName(service)}
                state={state}
                onOutcome={setOutcome}
              />
            )}
          />
          <Divider my="md" label="Add a service" labelPosition="left" />
          <NotificationServiceForm
            configuredTypes={configuredTypes}
            onCreate={async (payload) => {
              await create.mutateAsync(payload);
            }}
            onTest={(payload) => test.mutateAsync(payload)}
          />
        </>
      )}
    </Card>
  );
}
