import { Card, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type AdminUser, accountMessages } from '@resort/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { FeedbackBanner, useFeedback } from '@/components/feedback.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '@/components/states.tsx';
import { useSession } from '@/session/use-session.ts';
import { InvitationsCard } from './invitations-card.tsx';
import { SignupPolicyCard } from './signup-policy-card.tsx';
import { UserDetailModal } from './user-detail-modal.tsx';
import { UserTable } from './user-table.tsx';

export const usersTexts = {
  loading: 'Loading users…',
  empty: 'No accounts match.',
} as const;

/** Users (/admin/users): accounts, invitations and the sign-up policy (docs/product.md, "Roles and permissions"). */
export function UsersScreen() {
  const api = useApi();
  const isSuperAdmin = useSession()?.user.roles.includes('super_admin') ?? false;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const list = useQuery({ ...api.users.list(debounced), placeholderData: keepPreviousData });
  const [open, setOpen] = useState<AdminUser | null>(null);
  // The dialog unmounts on close, so it cannot hand focus back itself: the screen returns it to the
  // button that opened it (or, when that account was deleted, leaves it where the banner is announced).
  const opener = useRef<HTMLElement | null>(null);
  const openUser = (user: AdminUser) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(user);
  };
  useEffect(() => {
    if (open !== null) return;
    const target = opener.current;
    opener.current = null;
    if (target?.isConnected) target.focus();
  }, [open]);
  const { feedback, show, clear } = useFeedback();

  return (
    <Stack gap="lg">
      <PageHeader title="Users" subtitle="Accounts, invitations and who can register." />
      <FeedbackBanner feedback={feedback} onClose={clear} mb={0} />
      <Card withBorder>
        <Title order={3} size="h4" mb="sm">
          Accounts
        </Title>
        <TextInput
          label="Search accounts"
          placeholder="Name or e-mail"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          mb="md"
        />
        {list.isPending ? <LoadingState label={usersTexts.loading} /> : null}
        {list.error ? (
          <ErrorState
            message={errorMessage(list.error, accountMessages.loadUsersFailed)}
            onRetry={() => void list.refetch()}
          />
        ) : null}
        {list.data && list.data.length === 0 ? <EmptyState message={usersTexts.empty} /> : null}
        {list.data && list.data.length > 0 ? <UserTable users={list.data} onOpen={openUser} /> : null}
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <InvitationsCard canInviteAdmin={isSuperAdmin} onDone={show} />
        <SignupPolicyCard canSet={isSuperAdmin} onDone={show} />
      </SimpleGrid>
      {open ? (
        <UserDetailModal
          user={open}
          isSuperAdmin={isSuperAdmin}
          onClose={() => setOpen(null)}
          onDeleted={(message) => {
            setOpen(null);
            show({ tone: 'success', message });
          }}
        />
      ) : null}
    </Stack>
  );
}
