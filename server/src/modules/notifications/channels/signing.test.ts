import { describe, expect, it } from 'vitest';
import { newSigningSecret, signingKey, signWebhook } from './signing.ts';

describe('Standard Webhooks signing', () => {
  it('matches the specification example', () => {
    // The example of the Standard Webhooks specification's reference libraries.
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of 32 random bytes in the whsec_ form', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(signingKey(a)).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });
});
