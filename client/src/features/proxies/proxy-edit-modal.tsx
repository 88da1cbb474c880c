import { Alert, Modal, Stack } from '@mantine/core';
import { type CreateProxy, proxyMessages, type WebProxy } from '@resort/shared';
import { useState } from 'react';
import { errorMessage } from '@/api/http.ts';
import { ProxyForm } from './proxy-form.tsx';
import { proxyAddress } from './proxy-row.tsx';

export function ProxyEditModal({
  proxy,
  onClose,
  onSave,
}: {
  proxy: WebProxy | null;
  onClose: () => void;
  onSave: (proxy: WebProxy, values: CreateProxy) => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <Modal
      opened={proxy !== null}
      onClose={close}
      title={proxy ? `Edit ${proxyAddress(proxy)}` : ''}
      size="lg"
    >
      {proxy ? (
        <Stack gap="sm">
          {error ? (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          ) : null}
          <ProxyForm
            key={proxy.id}
            initial={proxy}
            submitLabel="Save proxy"
            onCancel={close}
            onSubmit={async (values) => {
              setError(null);
              try {
                await onSave(proxy, values);
                close();
                return true;
              } catch (failure) {
                setError(errorMessage(failure, proxyMessages.updateFailed));
                return false;
              }
            }}
          />
        </Stack>
      ) : null}
    </Modal>
  );
}
