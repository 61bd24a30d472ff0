import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config.ts';
import { newId } from './tokens.ts';

/** An e-mail to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A message kept in the local outbox (the default set-up without SMTP). */
export interface OutboxEntry {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: number;
}

/** Sends e-mail: through SMTP when `SMTP_URL` is set, else into the local outbox. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Messages of the local outbox, newest last (empty with SMTP). */
  outbox(): Promise<OutboxEntry[]>;
  close(): Promise<void>;
}

/**
 * The mailer of a configuration. SMTP (nodemailer) from `SMTP_URL`; without it, every message is
 * written as JSON to `DATA_DIR/outbox/`, where tests and the back office read it.
 */
export function createMailer(config: Config): Mailer {
  const outboxDir = path.join(config.dataDir, 'outbox');
  if (config.mail.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(config.mail.smtpUrl);
    return {
      kind: 'smtp',
      async send(m) {
        await transport.sendMail({ from: config.mail.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      },
      outbox: async () => [],
      async close() {
        transport.close();
      },
    };
  }
  return {
    kind: 'outbox',
    async send(m) {
      const entry: OutboxEntry = {
        id: newId(),
        to: m.to,
        from: config.mail.from,
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        created_at: Date.now(),
      };
      await fs.mkdir(outboxDir, { recursive: true });
      // Name sorts by time; the id keeps two messages of one millisecond apart.
      const file = path.join(outboxDir, `${String(entry.created_at).padStart(15, '0')}-${entry.id}.json`);
      await fs.writeFile(file, JSON.stringify(entry, null, 2));
    },
    outbox: () => readOutbox(outboxDir),
    close: async () => {},
  };
}

/** Reads every message of an outbox directory, oldest first. */
export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const entries: OutboxEntry[] = [];
  for (const n of names) entries.push(JSON.parse(await fs.readFile(path.join(dir, n), 'utf8')) as OutboxEntry);
  return entries;
}
