import { ActionIcon, Group, Menu } from '@mantine/core';
import { prettifyStatus, type SettableAlertStatus, userSettableStatuses } from '@resort/shared';
import { useEffect, useRef, useState } from 'react';
import type { AlertRecord } from '@/api/contracts.ts';
import { ButtonLink } from '@/components/links.tsx';

const joinedLeft = { borderTopRightRadius: 0, borderBottomRightRadius: 0 };
const joinedRight = { borderTopLeftRadius: 0, borderBottomLeftRadius: 0, borderLeft: '1px solid white' };

/**
 * The split button: 'Edit' goes to the form; the menu sets a status, archives (the planner's own
 * list) or removes the alert. The menu
 * (a popover with positioning logic) is mounted the first time it is opened, not for every row.
 */
export function AlertRowActions({
  alert,
  busy,
  onSetStatus,
  onRemove,
  onArchive,
}: {
  alert: AlertRecord;
  busy: boolean;
  onSetStatus: (alert: AlertRecord, status: SettableAlertStatus) => void;
  onRemove: (alert: AlertRecord) => void;
  onArchive?: (alert: AlertRecord) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [mounted, setMounted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  // Opened only once the menu is mounted around the (focused) trigger, so Mantine opens it as it
  // does any later time and moves the focus into it (arrow keys reach the items, Escape returns to
  // the trigger): opened together with the mount, the trigger was replaced under the focus and a
  // keyboard user was left on <body>.
  useEffect(() => {
    if (!mounted) return;
    triggerRef.current?.focus();
    setOpened(true);
  }, [mounted]);
  const label = `More actions for ${alert.id}`;
  const trigger = (
    <ActionIcon
      ref={triggerRef}
      size={30}
      variant="light"
      loading={busy}
      aria-label={label}
      style={joinedRight}
      {...(mounted ? {} : { 'aria-haspopup': 'menu' as const, 'aria-expanded': false })}
      onClick={mounted ? undefined : () => setMounted(true)}
    >
      <span aria-hidden>▾</span>
    </ActionIcon>
  );

  return (
    <Group gap={0} wrap="nowrap">
      <ButtonLink
        to="/configure/alerts"
        search={{ alert: alert.id }}
        size="xs"
        variant="light"
        style={joinedLeft}
      >
        Edit
      </ButtonLink>
      {mounted ? (
        <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened}>
          <Menu.Target>{trigger}</Menu.Target>
          <Menu.Dropdown>
            {userSettableStatuses.map((status) => (
              <Menu.Item key={status} onClick={() => onSetStatus(alert, status)}>
                {`Mark as ${prettifyStatus(status).toLowerCase()}`}
              </Menu.Item>
            ))}
            {onArchive ? <Menu.Item onClick={() => onArchive(alert)}>Archive alert</Menu.Item> : null}
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => onRemove(alert)}>
              Remove alert
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ) : (
        trigger
      )}
    </Group>
  );
}
