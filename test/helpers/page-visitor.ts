// A customer on a page without a browser (the rules of a customer page over HTTP): GET the page and
// POST its forms url-encoded, as a browser would, with a user agent the audit trail can be checked
// against. The app is read when called (tests start it in beforeAll).
import type { TestApp } from './harness.ts';

export interface PageAnswer {
  status: number;
  text: string;
  headers: Record<string, unknown>;
}

export function pageVisitor(app: () => TestApp, userAgent: string) {
  return {
    async getPage(path: string): Promise<PageAnswer> {
      const r = await app().app.inject({ method: 'GET', url: path, headers: { 'user-agent': userAgent } });
      return { status: r.statusCode, text: r.body, headers: r.headers };
    },
    async post(path: string, fields: Record<string, string>): Promise<PageAnswer> {
      const r = await app().app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
        payload: new URLSearchParams(fields).toString(),
      });
      return { status: r.statusCode, text: r.body, headers: r.headers };
    },
  };
}
