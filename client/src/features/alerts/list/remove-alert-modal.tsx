import { Button, Group, Modal, Text } from '@mantine/core';
import { alertListMessages } from '@resort/shared';
import type { AlertRecord } from '@/api/contracts.ts';
import { alertDisplayTitle } from '@/features/alerts/alert-text.ts';

export function RemoveAlertModal({
  alert,
  removing,
  onCancel,
  onConfirm,
}: {
  alert: AlertRecord | null;
  removing: boolean;
  onCancel: () => void;
  onConfirm: (alert: AlertRecord) => void;
}) {
  return (
    <Modal opened={alert !== null} onClose={onCancel} title="Remove alert" centered>
      {alert ? (
        <>
          <Text mb="lg">{alertListMessages.removeConfirm(alertDisplayTitle(alert))}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={removing}>
              Cancel
            </Button>
            <Button color="red" loading={removing} onClick={() => onConfirm(alert)}>
              Remove alert
            </Button>
          </Group>
        </>
      ) : null}
    </Modal>
  );
}
