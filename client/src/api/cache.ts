/** Query cache times (docs/product.md, "Limits and constants"), one per call family. */
export const staleTimes = {
  templates: 60_000,
  templateGroups: 5 * 60_000,
  userSummary: 30_000,
  alerts: 30_000,
  proxies: 30_000,
} as const;
