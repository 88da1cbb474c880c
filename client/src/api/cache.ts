/** Query cache times of SPEC.md §7 and §9, one per call family. */
export const staleTimes = {
  templates: 60_000,
  templateGroups: 5 * 60_000,
  userSummary: 30_000,
  alerts: 30_000,
  proxies: 30_000,
} as const;
