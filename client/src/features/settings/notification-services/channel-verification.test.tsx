import { channelVerificationMessages as v } from '@resort/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Feedback } from '@/components/feedback.tsx';
import { ApiAnswer, renderWithApi } from '@/test/api-harness.tsx';
import { ChannelVerification } from './channel-verification.tsx';

const id = '33333333-3333-4333-8333-333333333333';

function renderVerification(handlers: Parameters<typeof renderWithApi>[0]['handlers']) {
  const outcomes: Feedback[] = [];
  const result = renderWithApi({
    handlers,
    path: '/settings',
    routes: {
      '/settings': () => (
        <ChannelVerification
          serviceId={id}
          name="Phone"
          state="unverified"
          onOutcome={(o) => outcomes.push(o)}
        />
      ),
    },
  });
  return { ...result, outcomes };
}

describe('channel verification', () => {
  it('says the channel receives nothing yet, checks the code and verifies it', async () => {
    const user = userEvent.setup();
    const { calls, outcomes } = renderVerification({ 'notificationServices.verify': () => ({ id }) });
    expect(await screen.findByText(v.unverified)).toBeInTheDocument();
    const code = screen.getByLabelText('Verification code for Phone');
    await user.type(code, '12a');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code from the message.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByDisplayValue('');
    expect(calls).toEqual([{ path: 'notificationServices.verify', input: { id, code: '123456' } }]);
    expect(outcomes).toEqual([{ tone: 'success', message: v.verified }]);
  });

  it("shows the server's refusal of a wrong code, and sends a new one", async () => {
    const user = userEvent.setup();
    const { outcomes } = renderVerification({
      'notificationServices.verify': () => {
        throw new ApiAnswer(400, v.codeWrong);
      },
      'notificationServices.sendVerificationCode': () => ({ message: v.codeSent }),
    });
    await user.type(await screen.findByLabelText('Verification code for Phone'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(v.codeWrong)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send a code' }));
    await expect.poll(() => outcomes).toEqual([{ tone: 'success', message: v.codeSent }]);
  });
});
