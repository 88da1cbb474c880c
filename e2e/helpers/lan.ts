import { spawnSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';

export interface LanAddress {
  address: string;
  /** Removes what `lanAddress` created; nothing when it borrowed an existing address. */
  release(): void;
}

/** A dummy interface and a TEST-NET-2 address (RFC 5737), for a machine with no network of its own. */
const OWN_INTERFACE = 'ra-e2e-lan';
const OWN_ADDRESS = '198.51.100.77';

/**
 * A non-loopback IPv4 address of this machine, as another device on the LAN would reach it: the
 * first one os.networkInterfaces() lists. A machine without one (a container with only `lo`) gets
 * one the test owns: a dummy interface with a documentation address, which needs CAP_NET_ADMIN
 * (`ip link add ra-e2e-lan type dummy; ip addr add 198.51.100.77/32 dev ra-e2e-lan`), removed again
 * by `release()`.
 */
export function lanAddress(): LanAddress {
  for (const entries of Object.values(networkInterfaces())) {
    const found = entries?.find((e) => e.family === 'IPv4' && !e.internal);
    if (found) return { address: found.address, release: () => {} };
  }
  const run = (...args: string[]) => spawnSync('ip', args, { encoding: 'utf8' });
  const steps = [
    ['link', 'add', OWN_INTERFACE, 'type', 'dummy'],
    ['addr', 'add', `${OWN_ADDRESS}/32`, 'dev', OWN_INTERFACE],
    ['link', 'set', OWN_INTERFACE, 'up'],
  ];
  for (const step of steps) {
    const result = run(...step);
    if (result.status !== 0) {
      run('link', 'delete', OWN_INTERFACE);
      throw new Error(
        `No non-loopback address, and creating one failed (ip ${step.join(' ')}): ${result.stderr || result.error}`,
      );
    }
  }
  return { address: OWN_ADDRESS, release: () => void run('link', 'delete', OWN_INTERFACE) };
}
