import { Button, Group, Text } from '@mantine/core';
import { maskSecret, type NotificationService } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import type { ServiceOutcome } from './notification-service-actions.tsx';
import { browserName, currentSubscription, subscribeThisBrowser, webPushSupported } from './web-push.ts';

export const webPushMessages = {
  unsupported: 'This browser cannot receive push notifications (or the page is not on HTTPS).',
  on: 'Push is on in this browser: alerts reach it even with the app closed.',
  off: 'Turn on push to get alerts in this browser even with the app closed.',
  turnedOn: 'Push turned on in this browser.',
  failed: 'Unable to turn on push in this browser.',
} as const;

/**
 * "Push in this browser": subscribes this browser (permission, the server's VAPID key) and saves it
 * as a WEB_PUSH service, listed and removable with the others. A saved subscription is recognised by
 * its masked endpoint.
 */
export function WebPushToggle({
  services,
  onOutcome,
}: {
  services: readonly Pick<NotificationService, 'type' | 'config'>[];
  onOutcome: (outcome: ServiceOutcome) => void;
}) {
  const api = useApi();
  const supported = webPushSupported();
  const key = useQuery({ ...api.notificationServices.webPushKey(), enabled: supported });
  const create = useMutation(api.notificationServices.create());
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!supported) return;
    void currentSubscription().then((s) => setEndpoint(s?.endpoint ?? null));
  }, [supported]);

  if (!supported)
    return (
      <Text size="sm" c="dimmed">
        {webPushMessages.unsupported}
      </Text>
    );

  const saved =
    endpoint !== null &&
    services.some(
      (s) => s.type === 'WEB_PUSH' && (s.config as { endpoint?: string }).endpoint === maskSecret(endpoint),
    );

  async function turnOn() {
    if (!key.data) return;
    setBusy(true);
    try {
      const result = await subscribeThisBrowser(key.data.publicKey);
      if (!result.ok) {
        onOutcome({ tone: 'error', message: result.reason });
        return;
      }
      await create.mutateAsync({ type: 'WEB_PUSH', label: browserName(), config: result.config });
      setEndpoint(result.config.endpoint);
      onOutcome({ tone: 'success', message: webPushMessages.turnedOn });
    } catch (error) {
      onOutcome({ tone: 'error', message: errorMessage(error, webPushMessages.failed) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text size="sm">{saved ? webPushMessages.on : webPushMessages.off}</Text>
      {saved ? null : (
        <Button size="xs" variant="light" loading={busy} disabled={!key.data} onClick={() => void turnOn()}>
          Turn on push in this browser
        </Button>
      )}
    </Group>
  );
}
