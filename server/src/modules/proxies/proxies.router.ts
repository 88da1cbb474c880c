import {
  bulkProxyStatusInput,
  createProxyInput,
  importProxiesInput,
  proxyIdInput,
  updateProxyInput,
} from '@resort/shared';
import { adminProcedure, router } from '../../http/trpc.ts';

/** Web proxy management: administrators only (SPEC.md §6). */
export const proxiesRouter = router({
  list: adminProcedure.query(({ ctx }) => ctx.services.proxies.list()),

  create: adminProcedure
    .input(createProxyInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.create(input)),

  update: adminProcedure
    .input(updateProxyInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.update(input)),

  remove: adminProcedure
    .input(proxyIdInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.remove(input.id)),

  resetFailures: adminProcedure
    .input(proxyIdInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.resetFailures(input.id)),

  bulkStatus: adminProcedure
    .input(bulkProxyStatusInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.setStatus(input)),

  import: adminProcedure
    .input(importProxiesInput)
    .mutation(({ ctx, input }) => ctx.services.proxies.importList(input)),
});
