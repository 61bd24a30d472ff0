// mailparser ships no types; the part the tests use.
declare module 'mailparser' {
  import type { Readable } from 'node:stream';
  export interface ParsedMail {
    subject?: string;
    text?: string;
    html?: string | false;
    from?: { value: { name: string; address?: string }[]; text: string };
  }
  export function simpleParser(source: Readable | Buffer | string): Promise<ParsedMail>;
}
