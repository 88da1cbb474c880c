import { Stack } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { ApiTokensSection } from '@/features/settings/api-tokens-section.tsx';
import { ContactSection } from '@/features/settings/contact-section.tsx';
import { NotificationServicesSection } from '@/features/settings/notification-services/notification-services-section.tsx';
import { PreferencesSection } from '@/features/settings/preferences-section.tsx';
import { ProfileSection } from '@/features/settings/profile-section.tsx';
import { SecuritySection } from '@/features/settings/security-section.tsx';

export const Route = createFileRoute('/_app/_configurator/settings')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(context.api.account.profile());
  },
  component: SettingsPage,
});

function SettingsPage() {
  const api = useApi();
  const profile = useQuery(api.account.profile());

  return (
    <>
      <PageHeader
        title="Settings"
        subtitle="Your profile, contact details, security and notification services."
      />
      {profile.isPending ? (
        <LoadingState label="Loading your account…" />
      ) : profile.isError ? (
        <ErrorState
          message={errorMessage(profile.error, authMessages.loadUserFailed)}
          onRetry={() => profile.refetch()}
        />
      ) : (
        <Stack gap="lg">
          <ProfileSection profile={profile.data} />
          <ContactSection profile={profile.data} />
          <SecuritySection />
          <PreferencesSection />
          <NotificationServicesSection />
          <ApiTokensSection />
        </Stack>
      )}
    </>
  );
}
