import { Alert } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useState } from 'react';
import type { Flash } from '@/app/flash.ts';

/** Accepts only what SPEC.md allows through navigation state: a known tone and a non-empty message. */
export function readFlash(state: unknown): Flash | null {
  if (typeof state !== 'object' || state === null) return null;
  const flash = (state as { flash?: unknown }).flash;
  if (typeof flash !== 'object' || flash === null) return null;
  const { tone, message } = flash as { tone?: unknown; message?: unknown };
  if (tone !== 'success' && tone !== 'error') return null;
  if (typeof message !== 'string' || message.trim() === '') return null;
  return { tone, message };
}

export function FlashAlert({ flash, onClose }: { flash: Flash; onClose: () => void }) {
  return (
    <Alert
      color={flash.tone === 'success' ? 'teal' : 'red'}
      variant="light"
      withCloseButton
      onClose={onClose}
      role={flash.tone === 'error' ? 'alert' : 'status'}
      mb="md"
    >
      {flash.message}
    </Alert>
  );
}

/** The banner another screen handed over when it navigated here (e.g. the alert form after saving). */
export function NavigationFlash() {
  const state = useLocation({ select: (l) => l.state });
  const key = useLocation({ select: (l) => l.state.key ?? l.href });
  const [dismissed, setDismissed] = useState<string | null>(null);
  const flash = readFlash(state);
  if (!flash || dismissed === key) return null;
  return <FlashAlert flash={flash} onClose={() => setDismissed(key)} />;
}
