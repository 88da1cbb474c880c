import { Stack } from '@mantine/core';
import { authMessages } from '@resort/shared';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import { PageHeader } from '@/components/page-header.tsx';
import { ErrorState, LoadingState } from '@/components/states.tsx';
import { AccountDataSection } from './account-data-section.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';
import { ContactSection } from './contact-section.tsx';
import { NotificationServicesSection } from './notification-services/notification-services-section.tsx';
import { QuietHoursSectionForAccount } from './notification-services/quiet-hours-section.tsx';
import { PreferencesSection } from './preferences-section.tsx';
import { ProfileSection } from './profile-section.tsx';
import { SecuritySection } from './security-section.tsx';

/** /settings: the account's profile, contact, security, preferences, channels and API tokens. */
export function SettingsScreen() {
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
          <QuietHoursSectionForAccount />
          <ApiTokensSection />
          <AccountDataSection />
        </Stack>
      )}
    </>
  );
}
