import {
  bulkProxyStatusInput,
  createProxyInput,
  importProxiesInput,
  importProxiesResultSchema,
  noContent,
  proxyIdInput,
  updatedCountSchema,
  updateProxyInput,
  webProxySchema,
} from '@resort/shared';
import { z } from 'zod';
import { syncParse } from '../../platform/trpc/sync-parse.ts';
import { adminProcedure, router } from '../../platform/trpc/trpc.ts';

/** Web proxy management: administrators only (docs/product.md, "Roles and permissions"). */
export const proxiesRouter = router({
  list: adminProcedure
    .meta({ rest: { method: 'GET', path: '/proxies' } })
    .output(syncParse(z.array(webProxySchema)))
    .query(({ ctx }) => ctx.services.proxies.list()),

  create: adminProcedure
    .meta({ rest: { method: 'POST', path: '/proxies', status: 201, errors: [409] } })
    .input(createProxyInput)
    .output(syncParse(webProxySchema))
    .mutation(({ ctx, input }) => ctx.services.proxies.create(input)),

  update: adminProcedure
    .meta({ rest: { method: 'PATCH', path: '/proxies/:id', errors: [409] } })
    .input(updateProxyInput)
    .output(syncParse(webProxySchema))
    .mutation(({ ctx, input }) => ctx.services.proxies.update(input)),

  remove: adminProcedure
    .meta({ rest: { method: 'DELETE', path: '/proxies/:id' } })
    .input(proxyIdInput)
    .output(syncParse(noContent))
    .mutation(({ ctx, input }) => ctx.services.proxies.remove(input.id)),

  resetFailures: adminProcedure
    .meta({ rest: { method: 'POST', path: '/proxies/:id/reset-failures' } })
    .input(proxyIdInput)
    .output(syncParse(webProxySchema))
    .mutation(({ ctx, input }) => ctx.services.proxies.resetFailures(input.id)),

  bulkStatus: adminProcedure
    .meta({ rest: { method: 'POST', path: '/proxies/bulk-status' } })
    .input(bulkProxyStatusInput)
    .output(syncParse(updatedCountSchema))
    .mutation(({ ctx, input }) => ctx.services.proxies.setStatus(input)),

  import: adminProcedure
    .meta({ rest: { method: 'POST', path: '/proxies/import' } })
    .input(importProxiesInput)
    .output(syncParse(importProxiesResultSchema))
    .mutation(({ ctx, input }) => ctx.services.proxies.importList(input)),
});
