import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@/app/theme.css';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppServices } from '@/app/create-app.ts';
import { AppProviders } from '@/app/providers.tsx';
import { createAppRouter } from '@/app/router.ts';
import { registerServiceWorker } from '@/app/service-worker.ts';
import { SESSION_STORAGE_KEY } from '@/session/session-store.ts';

const services = createAppServices();
const router = createAppRouter(services);

// Restoring is synchronous; the profile refresh that follows may end the session later.
void services.manager.start();
// Guards run in beforeLoad; when the session changes (sign-out, expiry, a refused token) they run
// again, so a signed-out visitor is sent to /login with the page remembered.
services.session.subscribe(() => void router.invalidate());
window.addEventListener('storage', (event) => {
  if (event.key === SESSION_STORAGE_KEY) services.manager.onStorageChange();
});

registerServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders services={services}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
