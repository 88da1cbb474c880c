import { Button } from '@mantine/core';
import { Notifications, notifications, notificationsStore } from '@mantine/notifications';
import { settingsConfirmationMs, toastMs } from '@resort/shared';
import { useNavigate } from '@tanstack/react-router';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithMantine, renderWithRouter } from '@/test/render.tsx';
import { type Feedback, FeedbackBanner, NavigationFeedback, readFlash, useFeedback } from './feedback.tsx';

const saved: Feedback = { tone: 'success', message: 'Saved.' };
const failed: Feedback = { tone: 'error', message: 'Could not save.' };

function Reporter({ lastsMs, as }: { lastsMs?: number; as?: 'banner' | 'toast' }) {
  const { feedback, show, clear } = useFeedback({ ...(lastsMs ? { lastsMs } : {}), ...(as ? { as } : {}) });
  return (
    <>
      <Button onClick={() => show(saved)}>Report success</Button>
      <Button onClick={() => show(failed)}>Report failure</Button>
      <FeedbackBanner feedback={feedback} {...(lastsMs ? {} : { onClose: clear })} />
    </>
  );
}

/** A screen that navigates with a flash, above the banner that shows it. */
function HandsOver() {
  const navigate = useNavigate();
  return (
    <>
      <Button onClick={() => void navigate({ to: '/', state: { flash: failed } })}>Go</Button>
      <NavigationFeedback />
    </>
  );
}

afterEach(() => {
  vi.useRealTimers();
  notifications.clean();
});

describe('feedback banner', () => {
  it('announces success politely and an error at once, and closes when closable', async () => {
    const user = userEvent.setup();
    renderWithMantine(<Reporter />);
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Report success' }));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    await user.click(screen.getByRole('button', { name: 'Report failure' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save.');
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('with lastsMs (the Settings confirmation) has no close button and goes after that long', () => {
    vi.useFakeTimers();
    renderWithMantine(<Reporter lastsMs={settingsConfirmationMs} />);
    act(() => screen.getByRole('button', { name: 'Report success' }).click());
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    expect(screen.queryByRole('button', { name: 'Dismiss message' })).toBeNull();
    act(() => vi.advanceTimersByTime(settingsConfirmationMs - 1));
    expect(screen.getByRole('status')).toHaveTextContent('Saved.');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a new message restarts the time a timed banner stays', () => {
    vi.useFakeTimers();
    renderWithMantine(<Reporter lastsMs={settingsConfirmationMs} />);
    act(() => screen.getByRole('button', { name: 'Report success' }).click());
    act(() => vi.advanceTimersByTime(settingsConfirmationMs - 1000));
    act(() => screen.getByRole('button', { name: 'Report failure' }).click());
    act(() => vi.advanceTimersByTime(settingsConfirmationMs - 1));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save.');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('toast', () => {
  it('shows the message as a toast that closes itself after the toast time, not as a banner', async () => {
    const user = userEvent.setup();
    renderWithMantine(
      <>
        <Notifications />
        <Reporter as="toast" />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Report failure' }));
    const shown = await screen.findByText('Could not save.');
    expect(shown.closest('[role="alert"]')).not.toBeNull();
    expect(notificationsStore.getState().notifications).toMatchObject([
      { message: 'Could not save.', color: 'red', autoClose: toastMs },
    ]);
    // The banner stays empty: a toast is not also a banner.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });
});

describe('navigation feedback', () => {
  it('accepts only a known tone with a message', () => {
    expect(readFlash({ flash: saved })).toEqual(saved);
    expect(readFlash({ flash: { tone: 'info', message: 'Hi' } })).toBeNull();
    expect(readFlash({ flash: { tone: 'success', message: '  ' } })).toBeNull();
    expect(readFlash(null)).toBeNull();
  });

  it('shows the banner handed over through navigation state until it is closed', async () => {
    const user = userEvent.setup();
    await renderWithRouter(<HandsOver />);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not save.');
    await user.click(screen.getByRole('button', { name: 'Dismiss message' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
