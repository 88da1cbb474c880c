import { publicProcedure, router } from '../../http/trpc.ts';

export const healthRouter = router({
  get: publicProcedure.query(({ ctx }) => ctx.services.health.check()),
});
