import { Card, Select, Text, Title } from '@mantine/core';
import { accountMessages, type SignupPolicy, signupPolicies, signupPolicyLabels } from '@resort/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import type { Feedback } from '@/components/feedback.tsx';
import { ErrorState } from '@/components/states.tsx';

const options = signupPolicies.map((value) => ({ value, label: signupPolicyLabels[value] }));

/** Who may register: read by admins, set by a super admin. */
export function SignupPolicyCard({ canSet, onDone }: { canSet: boolean; onDone: (f: Feedback) => void }) {
  const api = useApi();
  const settings = useQuery(api.users.signupSettings());
  const set = useMutation(api.users.setSignupPolicy());

  const change = async (policy: SignupPolicy) => {
    try {
      await set.mutateAsync({ policy });
      onDone({ tone: 'success', message: accountMessages.policyChanged(signupPolicyLabels[policy]) });
    } catch (error) {
      onDone({ tone: 'error', message: errorMessage(error, accountMessages.updateUserFailed) });
    }
  };

  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Sign-up policy
      </Title>
      {settings.error ? (
        <ErrorState message={errorMessage(settings.error, accountMessages.loadUsersFailed)} />
      ) : (
        <Select
          label="Who can register"
          data={options}
          value={settings.data?.policy ?? null}
          disabled={!canSet || !settings.data || set.isPending}
          allowDeselect={false}
          onChange={(value) => value && void change(value as SignupPolicy)}
        />
      )}
      {canSet ? null : (
        <Text size="sm" c="dimmed" mt="xs">
          Only a super admin can change the sign-up policy.
        </Text>
      )}
    </Card>
  );
}
