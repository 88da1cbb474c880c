import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiProvider } from '@/api/api-context.tsx';
import { TRPCProvider } from '@/api/trpc.ts';
import { SessionContext } from '@/session/use-session.ts';
import type { AppServices } from './create-app.ts';
import { LiveUpdates } from './live-updates.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

export function AppProviders({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" />
      <QueryClientProvider client={services.queryClient}>
        <TRPCProvider trpcClient={services.client} queryClient={services.queryClient}>
          <ApiProvider api={services.api}>
            <SessionContext value={{ store: services.session, manager: services.manager }}>
              <LiveUpdates />
              {children}
            </SessionContext>
          </ApiProvider>
        </TRPCProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
