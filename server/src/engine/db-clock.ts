/**
 * Due times are the database's: this worker's estimate of (database clock − local clock), refreshed
 * from every statement that answers the database's `now()` (a claim, a heartbeat). The estimate takes
 * the database's answer as read halfway between sending and answer.
 */
export function createDbClock() {
  let offsetMs = 0;
  return {
    /** The database's time now, in epoch milliseconds, as this worker estimates it. */
    now: (): number => Date.now() + offsetMs,
    observe(dbNow: Date, sentAt: number, answeredAt: number): void {
      offsetMs = dbNow.getTime() - (sentAt + answeredAt) / 2;
    },
  };
}

export type DbClock = ReturnType<typeof createDbClock>;
