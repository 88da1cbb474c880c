/**
 * Runs the integrator flow against a running instance:
 *
 *   RESORT_API_URL=http://localhost:3000 RESORT_API_TOKEN=ra_pat_… \
 *   WEBHOOK_URL=https://example.org/hook node examples/integrator/main.ts
 */
import { runIntegratorFlow } from './flow.ts';

const baseUrl = process.env.RESORT_API_URL ?? 'http://localhost:3000';
const token = process.env.RESORT_API_TOKEN;
const webhookUrl = process.env.WEBHOOK_URL ?? 'https://example.org/hook';
if (!token) {
  console.error('Set RESORT_API_TOKEN to a read-write personal API token (Settings → API tokens).');
  process.exit(1);
}
const result = await runIntegratorFlow({ baseUrl, token, webhookUrl });
console.log(
  `webhook service ${result.serviceId}; alert ${result.alert.id} (${result.alert.status}) created, read and deleted; ` +
    `${result.history.length} notification(s) in the history`,
);
