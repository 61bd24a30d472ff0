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
  /** The sender's display name (the label's), replacing MAIL_FROM's; the address stays MAIL_FROM's. */
  fromName?: string;
}

/** MAIL_FROM's address (`Name <a@b>` or a bare address). */
export function fromAddressOf(from: string): string {
  return /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

/** The From header of a message: its display name with MAIL_FROM's address, else MAIL_FROM. */
function fromOf(configured: string, m: MailMessage): { name: string; address: string } | string {
  // Line breaks and quotes in a name must never reach the header (injection): they are dropped.
  const name = m.fromName?.replace(/[\r\n"<>]/g, '').trim();
  return name ? { name, address: fromAddressOf(configured) } : configured;
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
        await transport.sendMail({ from: fromOf(config.mail.from, m), to: m.to, subject: m.subject, text: m.text, html: m.html });
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
      const from = fromOf(config.mail.from, m);
      const entry: OutboxEntry = {
        id: newId(),
        to: m.to,
        from: typeof from === 'string' ? from : `"${from.name}" <${from.address}>`,
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
