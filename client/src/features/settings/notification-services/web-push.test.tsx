import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApi } from '@/test/api-harness.tsx';
import { browserName, webPushSupported } from './web-push.ts';
import { WebPushToggle, webPushMessages } from './web-push-toggle.tsx';

describe('web push in Settings', () => {
  it('names the browser so subscriptions can be told apart', () => {
    expect(
      browserName(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(
      browserName(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(browserName('Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0')).toBe(
      'Firefox on Android',
    );
    expect(
      browserName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0',
      ),
    ).toBe('Edge on Windows');
  });

  it('says so where the browser cannot receive push, and asks for no key', async () => {
    expect(webPushSupported()).toBe(false);
    const { calls } = renderWithApi({
      handlers: {},
      path: '/s',
      routes: { '/s': () => <WebPushToggle services={[]} onOutcome={() => undefined} /> },
    });
    expect(await screen.findByText(webPushMessages.unsupported)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on push in this browser' })).toBeNull();
    expect(calls).toEqual([]);
  });
});
