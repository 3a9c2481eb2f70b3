import type Koa from 'koa';

/** A cookie the sign-in sets: HttpOnly always, Secure when the console is served over https. */
export interface Cookie {
  name: string;
  value: string;
  secure: boolean;
  path: string;
  maxAgeSeconds?: number;
  sameSite: 'Strict' | 'Lax';
}

export function setCookie(ctx: Koa.Context, cookie: Cookie): void {
  const parts = [
    `${cookie.name}=${cookie.value}`,
    `Path=${cookie.path}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite}`,
  ];
  if (cookie.maxAgeSeconds !== undefined) parts.push(`Max-Age=${cookie.maxAgeSeconds}`);
  if (cookie.secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

/** Clears a cookie of path `/`. */
export const clearCookie = (ctx: Koa.Context, cookie: { name: string; secure: boolean }) =>
  setCookie(ctx, { ...cookie, value: '', path: '/', maxAgeSeconds: 0, sameSite: 'Lax' });

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The page of a sign-in that did not open a session: says why and offers the way on, never a redirect loop. */
export const PAGE_SECURITY_POLICY =
  "default-src 'none'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A page that says why a sign-in stopped: its title, and paragraphs of HTML (their text already escaped). */
export interface AnswerPage {
  status: number;
  title: string;
  paragraphs: string[];
}

export function answerPage(ctx: Koa.Context, page: AnswerPage): void {
  ctx.status = page.status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_SECURITY_POLICY);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)} · Referee console</title>`,
    '<link rel="icon" href="/console/favicon.svg" type="image/svg+xml"></head>',
    '<body><main>',
    `<h1>${escapeHtml(page.title)}</h1>`,
    ...page.paragraphs.map((p) => `<p>${p}</p>`),
    '<p><a href="/console">Back to the console sign-in</a></p>',
    '</main></body></html>',
  ].join('\n');
}

/** A small mark for the browser's tab (no 404 for /favicon.ico in any console page's log). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f4e79"/>' +
  '<path d="M4 12V4h4.5a2.5 2.5 0 0 1 0 5H6m2 0 3 3" stroke="#fff" stroke-width="1.6" fill="none"/></svg>';

export function favicon(ctx: Koa.Context): void {
  ctx.type = 'image/svg+xml';
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = FAVICON_SVG;
}
