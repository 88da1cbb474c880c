import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import type { Logger } from '../../platform/logger.ts';

export interface AccountMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * E-mail about the account itself (an invitation, a password reset), over SMTP_URL. Links in these
 * e-mails are built on PUBLIC_URL only, never on the request's Host header, which a stranger
 * chooses: without both, `available` is false and nothing is e-mailed.
 */
export function createAccountMailer(deps: {
  config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM' | 'PUBLIC_URL' | 'OUTBOUND_TIMEOUT_MS'>;
  log: Logger;
}) {
  const { config, log } = deps;
  const transport =
    config.SMTP_URL && config.PUBLIC_URL
      ? nodemailer.createTransport({
          url: config.SMTP_URL,
          connectionTimeout: config.OUTBOUND_TIMEOUT_MS,
          greetingTimeout: config.OUTBOUND_TIMEOUT_MS,
          socketTimeout: config.OUTBOUND_TIMEOUT_MS,
        })
      : null;
  return {
    available: transport !== null,
    /** Sends one e-mail; a failure is logged (the caller's answer never depends on it). */
    async send(mail: AccountMail): Promise<boolean> {
      if (!transport) return false;
      try {
        await transport.sendMail({ from: config.SMTP_FROM, ...mail });
        return true;
      } catch (error) {
        log.warn({ err: error }, 'could not send an account e-mail');
        return false;
      }
    },
    close() {
      transport?.close();
    },
  };
}

export type AccountMailer = ReturnType<typeof createAccountMailer>;

/** A link to a page of the app: on PUBLIC_URL when set, else a path the client completes. */
export function appLink(publicUrl: string | undefined, path: string): string {
  return publicUrl ? new URL(path, publicUrl).toString() : path;
}
