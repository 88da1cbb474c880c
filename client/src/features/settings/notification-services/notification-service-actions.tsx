import { Button, Code, Menu, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notificationMessages as m, type NotificationServiceType } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { ConfirmModal } from '@/components/confirm-modal.tsx';
import type { Feedback } from '@/components/feedback.tsx';
import { NotificationServiceForm } from './notification-service-form.tsx';
import {
  fromService,
  type NotificationServicePayload,
  toPayload,
} from './notification-service-form-model.ts';
import { type ListedService, serviceName } from './notification-service-list.tsx';

export interface ServiceOutcome extends Feedback {
  /** A webhook's new signing secret, shown once after a rotation. */
  secret?: string | null;
}

/**
 * One saved service's controls: edit, send a test with its saved settings, enable or disable,
 * rotate a webhook's signing secret and delete, the last two after a confirmation. Each reports
 * its outcome to the section.
 */
export function NotificationServiceActions({
  service,
  configuredTypes,
  onOutcome,
}: {
  service: ListedService;
  configuredTypes: readonly NotificationServiceType[];
  onOutcome: (outcome: ServiceOutcome) => void;
}) {
  const api = useApi();
  const update = useMutation(api.notificationServices.update());
  const remove = useMutation(api.notificationServices.remove());
  const rotate = useMutation(api.notificationServices.rotateSecret());
  const test = useMutation(api.notificationServices.test());
  const [editing, edit] = useDisclosure(false);
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const name = serviceName(service);
  const busy = update.isPending || remove.isPending || rotate.isPending || test.isPending;

  async function act(run: () => Promise<ServiceOutcome>, fallback: string) {
    try {
      onOutcome(await run());
    } catch (error) {
      onOutcome({ tone: 'error', message: errorMessage(error, fallback) });
    }
  }

  const toggle = () =>
    act(async () => {
      await update.mutateAsync({ id: service.id, isActive: !service.isActive });
      return { tone: 'success', message: (service.isActive ? m.serviceDisabled : m.serviceEnabled)(name) };
    }, m.updateFailed);

  const sendTest = () =>
    act(async () => {
      const answer = await test.mutateAsync({ ...toPayload(fromService(service)), id: service.id });
      return { tone: 'success', message: answer?.message || m.testDispatched };
    }, m.testFailed);

  const confirmed = () => {
    const action = confirming;
    setConfirming(null);
    if (action === 'delete')
      void act(async () => {
        await remove.mutateAsync({ id: service.id });
        return { tone: 'success', message: m.serviceDeleted(name) };
      }, m.deleteFailed);
    if (action === 'rotate')
      void act(async () => {
        const rotated = await rotate.mutateAsync({ id: service.id });
        return { tone: 'success', message: m.secretRotated(name), secret: rotated.signingSecret };
      }, m.rotateFailed);
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" size="xs" loading={busy} aria-label={`Manage ${name}`}>
            Manage
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={edit.open}>Edit</Menu.Item>
          <Menu.Item onClick={() => void sendTest()}>Send test</Menu.Item>
          <Menu.Item onClick={() => void toggle()}>{service.isActive ? 'Disable' : 'Enable'}</Menu.Item>
          {service.type === 'WEBHOOK' ? (
            <Menu.Item onClick={() => setConfirming('rotate')}>Rotate signing secret</Menu.Item>
          ) : null}
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => setConfirming('delete')}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={editing} onClose={edit.close} title={`Edit ${name}`} size="lg">
        <NotificationServiceForm
          configuredTypes={configuredTypes}
          editing={{
            values: fromService(service),
            submitLabel: 'Save changes',
            savedMessage: m.serviceUpdated(name),
          }}
          onCreate={async (payload: NotificationServicePayload) => {
            const saved = await update.mutateAsync({
              id: service.id,
              label: payload.label ?? null,
              config: payload.config,
            });
            // Saved: the dialog closes and the section reports it under the service's new name.
            edit.close();
            onOutcome({ tone: 'success', message: m.serviceUpdated(serviceName(saved)) });
          }}
          onTest={(payload) => test.mutateAsync({ ...payload, id: service.id })}
        />
      </Modal>
      <ConfirmModal
        opened={confirming !== null}
        title={confirming === 'delete' ? 'Delete notification service' : 'Rotate signing secret'}
        message={confirming === 'delete' ? m.deleteConfirm(name) : m.rotateConfirm(name)}
        confirmLabel={confirming === 'delete' ? 'Delete service' : 'Rotate secret'}
        onCancel={() => setConfirming(null)}
        onConfirm={confirmed}
      />
    </>
  );
}

/** The outcome banner's body: the message, and a rotated secret to copy. */
export function ServiceOutcomeText({ outcome }: { outcome: ServiceOutcome }) {
  return (
    <Stack gap={4}>
      <Text size="sm">{outcome.message}</Text>
      {outcome.secret ? (
        <Code block data-testid="signing-secret" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {outcome.secret}
        </Code>
      ) : null}
    </Stack>
  );
}
