import { healthReportSchema } from '@resort/shared';
import type { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { publicProcedure, router } from '../../platform/trpc/trpc.ts';

export const healthRouter = router({
  get: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/health',
        statusFrom: (data) => ((data as { status: string }).status === 'ok' ? 200 : 503),
        statuses: [503],
        summary: 'Readiness of the database, the queue and the engine (503 while degraded)',
      },
    })
    .output(syncParse(healthReportSchema))
    // The service types the engine's figures loosely; the output schema checks them on the way out.
    .query(async ({ ctx }) => (await ctx.services.health.check()) as z.input<typeof healthReportSchema>),
});
