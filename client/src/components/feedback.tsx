import { Alert, type MantineSpacing } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { toastMs } from '@resort/shared';
import { useLocation } from '@tanstack/react-router';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

/**
 * What a screen tells the planner after an action. Every screen reports through this file, in one of
 * three ways:
 * - a banner in place, until it is closed or replaced (`useFeedback()` with `<FeedbackBanner>`);
 * - a banner that clears itself and has no close button (`useFeedback({ lastsMs })`: the Settings
 *   confirmations);
 * - a toast (`useFeedback({ as: 'toast' })`: Watchlists and Archived).
 * How long each lasts is in docs/product.md, "Limits and constants". A screen that navigates away
 * hands its banner to the next one as `state.flash`, which `<NavigationFeedback>` shows there.
 */
export interface Feedback {
  tone: 'success' | 'error';
  message: string;
}

/** Accepts only what navigation state may carry: a known tone and a non-empty message. */
export function readFlash(state: unknown): Feedback | null {
  if (typeof state !== 'object' || state === null) return null;
  const flash = (state as { flash?: unknown }).flash;
  if (typeof flash !== 'object' || flash === null) return null;
  const { tone, message } = flash as { tone?: unknown; message?: unknown };
  if (tone !== 'success' && tone !== 'error') return null;
  if (typeof message !== 'string' || message.trim() === '') return null;
  return { tone, message };
}

/**
 * The banner: teal for success (a polite status), red for an error (an alert, read out at once).
 * Closable when `onClose` is given; `children` replaces the plain message (e.g. a secret to copy).
 */
export function FeedbackBanner({
  feedback,
  onClose,
  mb = 'md',
  children,
}: {
  feedback: Feedback | null;
  onClose?: () => void;
  mb?: MantineSpacing;
  children?: ReactNode;
}) {
  if (!feedback) return null;
  return (
    <Alert
      color={feedback.tone === 'success' ? 'teal' : 'red'}
      variant="light"
      withCloseButton={onClose !== undefined}
      onClose={onClose}
      role={feedback.tone === 'error' ? 'alert' : 'status'}
      mb={mb}
    >
      {children ?? feedback.message}
    </Alert>
  );
}

/**
 * A screen's feedback: `show` reports an outcome, `clear` takes it away. As a banner, `feedback` is
 * what to pass to <FeedbackBanner>; `lastsMs` clears it by itself. As a toast it is shown at once
 * and `feedback` stays null.
 */
export function useFeedback<F extends Feedback = Feedback>(
  opts: { lastsMs?: number; as?: 'banner' | 'toast' } = {},
) {
  const { lastsMs, as = 'banner' } = opts;
  const [feedback, setFeedback] = useState<F | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback(
    (next: F) => {
      if (as === 'toast') {
        notifications.show({
          message: next.message,
          color: next.tone === 'success' ? 'teal' : 'red',
          autoClose: toastMs,
        });
        return;
      }
      clearTimeout(timer.current);
      setFeedback(next);
      if (lastsMs !== undefined) timer.current = setTimeout(() => setFeedback(null), lastsMs);
    },
    [as, lastsMs],
  );
  const clear = useCallback(() => {
    clearTimeout(timer.current);
    setFeedback(null);
  }, []);
  return { feedback, show, clear };
}

/** The banner another screen handed over when it navigated here (e.g. the alert form after saving). */
export function NavigationFeedback() {
  const state = useLocation({ select: (l) => l.state });
  const key = useLocation({ select: (l) => l.state.key ?? l.href });
  const [dismissed, setDismissed] = useState<string | null>(null);
  const flash = readFlash(state);
  return <FeedbackBanner feedback={dismissed === key ? null : flash} onClose={() => setDismissed(key)} />;
}
