import type { AlertRecord } from '@/api/contracts.ts';
import { TimeAgo } from './alert-time.tsx';
import classes from './alerts.module.css';

/**
 * An alert's health when it is not healthy (docs/product.md, "Alert health"): the health and its
 * cause in words, and when it last checked successfully.
 */
export function AlertHealthNote({ alert, now }: { alert: AlertRecord; now: number }) {
  const a = alert.activity;
  if (!a || a.health === 'healthy') return null;
  const serious = a.health === 'failing' || a.health === 'drifted';
  return (
    <div className={serious ? classes.error : classes.muted} data-testid="alert-health">
      <strong>{a.healthWords}</strong>
      <div>
        {a.lastSuccessAt ? (
          <>
            {'Last successful check '}
            <TimeAgo iso={a.lastSuccessAt} now={now} past />
          </>
        ) : (
          'No successful check yet'
        )}
      </div>
    </div>
  );
}

/**
 * An alert's life at a glance: its health when not healthy, last check (hover: exact time and
 * zone), next check, since when it matches (or not), and for ERROR why, in words.
 */
export function AlertActivity({ alert, now }: { alert: AlertRecord; now: number }) {
  const a = alert.activity;
  if (!a) return <span className={classes.muted}>—</span>;
  return (
    <div className={classes.activity} data-testid="alert-activity">
      <AlertHealthNote alert={alert} now={now} />
      <div>
        {a.lastCheckedAt ? (
          <>
            {'Checked '}
            <TimeAgo iso={a.lastCheckedAt} now={now} past />
          </>
        ) : (
          'Not checked yet'
        )}
      </div>
      {a.nextCheckAt ? (
        <div className={classes.muted}>
          {Date.parse(a.nextCheckAt) <= Math.max(now, Date.now()) ? (
            'Next check due now'
          ) : (
            <>
              {'Next check '}
              <TimeAgo iso={a.nextCheckAt} now={now} />
            </>
          )}
        </div>
      ) : (
        <div className={classes.muted}>Not being checked</div>
      )}
      {a.availabilityChangedAt ? (
        <div className={classes.muted}>
          {alert.status === 'FIRING' ? 'Matching since ' : 'No match since '}
          <TimeAgo iso={a.availabilityChangedAt} now={now} past />
        </div>
      ) : null}
      {alert.status === 'ERROR' && a.lastError ? (
        <div className={classes.error} data-testid="alert-last-error">{`Last error: ${a.lastError}`}</div>
      ) : null}
    </div>
  );
}
