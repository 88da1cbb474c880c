import { Button, Group, Modal, Text } from '@mantine/core';

export function ConfirmModal({
  opened,
  title,
  message,
  confirmLabel,
  onCancel,
  onConfirm,
  destructive = true,
}: {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
  /** Red for what cannot be taken back (deleting, rotating a secret); the primary colour otherwise. */
  destructive?: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={destructive ? 'red' : undefined} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
