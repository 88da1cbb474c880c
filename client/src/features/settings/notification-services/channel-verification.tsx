import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { CHANNEL_CODE_LENGTH, channelVerificationMessages as v, verifyChannelInput } from '@resort/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '@/api/api-context.tsx';
import { errorMessage } from '@/api/http.ts';
import type { Feedback } from '@/components/feedback.tsx';

const sendFailed = 'Unable to send a code right now.';
const verifyFailed = 'Unable to verify the channel right now.';

/**
 * An e-mail or SMS channel not verified yet: what that means, a code to send (again) and the field
 * to enter it. A channel added before verification existed keeps delivering and may be verified too.
 */
export function ChannelVerification({
  serviceId,
  name,
  state,
  onOutcome,
}: {
  serviceId: string;
  name: string;
  state: 'unverified' | 'existing';
  onOutcome: (outcome: Feedback) => void;
}) {
  const api = useApi();
  const send = useMutation(api.notificationServices.sendCode());
  const verify = useMutation(api.notificationServices.verify());
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  const sendCode = async () => {
    try {
      const { message } = await send.mutateAsync({ id: serviceId });
      onOutcome({ tone: 'success', message });
    } catch (error) {
      onOutcome({ tone: 'error', message: errorMessage(error, sendFailed) });
    }
  };
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = verifyChannelInput.safeParse({ id: serviceId, code });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? v.codeWrong);
      return;
    }
    setCodeError(null);
    try {
      await verify.mutateAsync(parsed.data);
      setCode('');
      onOutcome({ tone: 'success', message: v.verified });
    } catch (error) {
      setCodeError(errorMessage(error, verifyFailed));
    }
  };

  return (
    <Stack gap={4} mt={4}>
      <Text size="xs" c={state === 'unverified' ? 'orange.9' : 'dimmed'}>
        {state === 'unverified' ? v.unverified : v.existing}
      </Text>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Group gap="xs" align="flex-start" wrap="wrap">
          <TextInput
            size="xs"
            label={`Verification code for ${name}`}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={CHANNEL_CODE_LENGTH}
            value={code}
            error={codeError}
            onChange={(e) => setCode(e.currentTarget.value)}
            w={200}
          />
          <Button size="xs" type="submit" mt={22} loading={verify.isPending}>
            Verify
          </Button>
          <Button size="xs" variant="light" mt={22} loading={send.isPending} onClick={() => void sendCode()}>
            Send a code
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
