import { ActionIcon, Group, Menu } from '@mantine/core';
import { prettifyStatus, type SettableAlertStatus, settableAlertStatuses } from '@resort/shared';
import type { AlertRecord } from '../../api/contracts.ts';
import { ButtonLink } from '../links.tsx';

/** The split button: 'Edit' goes to the form; the menu sets a status or removes the alert. */
export function AlertRowActions({
  alert,
  busy,
  onSetStatus,
  onRemove,
}: {
  alert: AlertRecord;
  busy: boolean;
  onSetStatus: (alert: AlertRecord, status: SettableAlertStatus) => void;
  onRemove: (alert: AlertRecord) => void;
}) {
  return (
    <Group gap={0} wrap="nowrap">
      <ButtonLink
        to="/configure/alerts"
        search={{ alert: alert.id }}
        size="xs"
        variant="light"
        style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
      >
        Edit
      </ButtonLink>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            size={30}
            variant="light"
            loading={busy}
            aria-label={`More actions for ${alert.id}`}
            style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0, borderLeft: '1px solid white' }}
          >
            <span aria-hidden>▾</span>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {settableAlertStatuses.map((status) => (
            <Menu.Item key={status} onClick={() => onSetStatus(alert, status)}>
              {`Mark as ${prettifyStatus(status).toLowerCase()}`}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => onRemove(alert)}>
            Remove alert
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
