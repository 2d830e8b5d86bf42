// The mail settings: the outbox unless GROUNDWORK_SMTP_URL names an smtp:// or smtps:// server;
// GROUNDWORK_MAIL_FROM is a bare address. A wrong value stops the start instead of losing mail.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#src/config.ts';
import { buildDeps } from '#platform/deps.ts';
import { envVars } from '#test/helpers/env-vars.ts';

const NAMES = ['GROUNDWORK_SMTP_URL', 'GROUNDWORK_MAIL_FROM'];
const set = envVars(NAMES);

describe('mail settings', () => {
  it('default to the outbox with the local sender', async () => {
    set({});
    const mail = loadConfig().mail;
    expect(mail).toEqual({ smtpUrl: null, from: null });
    const transport = buildDeps({ mailSettings: mail, dataDir: '/tmp/x' }).mail;
    expect(transport.kind).toBe('outbox');
    expect(transport.fromAddress).toBe('groundwork@localhost');
  });

  it('choose SMTP for smtp:// and smtps:// URLs, signed with GROUNDWORK_MAIL_FROM', async () => {
    for (const url of ['smtp://user:pw@mail.example.com:587', 'smtps://mail.example.com:465']) {
      set({ GROUNDWORK_SMTP_URL: url, GROUNDWORK_MAIL_FROM: 'quotes@acme.test' });
      const mail = loadConfig().mail;
      expect(mail).toEqual({ smtpUrl: url, from: 'quotes@acme.test' });
      const transport = buildDeps({ mailSettings: mail }).mail;
      expect(transport.kind).toBe('smtp');
      expect(transport.fromAddress).toBe('quotes@acme.test');
      await transport.close();
    }
  });

  it('stop the start on a URL that is not SMTP or a sender that is not an address', () => {
    set({ GROUNDWORK_SMTP_URL: 'http://mail.example.com' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    set({ GROUNDWORK_MAIL_FROM: 'Acme <quotes@acme.test>' });
    expect(() => loadConfig()).toThrow(/GROUNDWORK_MAIL_FROM must be a bare address/);
  });
});
