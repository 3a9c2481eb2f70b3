import type { ProblemTypeDoc } from '../kernel/errors';

/** A published contract as the reference page lists it. */
export interface ContractLink {
  id: string;
  title: string;
  url: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Inline code spans (`x`) in catalogue text, after escaping. */
const withCode = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const head = (title: string, extraStyles: string[] = []) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
${extraStyles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>`;

/** `/docs`: both contracts rendered by Swagger UI, one section each, from this server's own files. */
export function referencePage(contracts: ContractLink[]): string {
  const nav = contracts
    .map((c) => `<a href="#${c.id}">${escapeHtml(c.title)}</a> (<a href="${c.url}">OpenAPI JSON</a>)`)
    .join(' · ');
  const sections = contracts
    .map(
      (c) => `<section id="${c.id}" class="contract">
<h2>${escapeHtml(c.title)}</h2>
<div class="contract-ui" data-openapi-url="${c.url}"></div>
</section>`,
    )
    .join('\n');
  return `${head('Referee API reference', ['/docs/assets/swagger-ui.css'])}
<body>
<header class="docs-header">
<h1>Referee API reference</h1>
<nav>${nav} · <a href="/docs/problems">Error types</a></nav>
</header>
<main>
${sections}
</main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body>
</html>
`;
}

/** `/docs/problems`: every problem `type` the API answers with; each code is an anchor. */
export function problemsPage(types: ProblemTypeDoc[]): string {
  const rows = [...types]
    .sort((a, b) => a.status - b.status || (a.code < b.code ? -1 : 1))
    .map(
      (t) =>
        `<tr id="${escapeHtml(t.code)}"><td><a href="#${escapeHtml(t.code)}"><code>${escapeHtml(t.code)}</code></a></td>` +
        `<td>${t.status}</td><td>${escapeHtml(t.title)}</td><td>${withCode(t.description)}</td></tr>`,
    )
    .join('\n');
  return `${head('Referee error types')}
<body>
<header class="docs-header">
<h1>Error types</h1>
<nav><a href="/docs">API reference</a></nav>
</header>
<main class="problems">
<p>Every error is an RFC 9457 <code>application/problem+json</code> body with <code>type</code>, <code>title</code>,
<code>status</code>, <code>detail</code>, a stable <code>code</code> and the request path as <code>instance</code>;
validation errors add <code>errors: [{path, message}]</code>. The <code>type</code> is
<code>/docs/problems#&lt;code&gt;</code>, an anchor on this page.</p>
<table>
<thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>
`;
}

/** Starts one Swagger UI per contract section; served as a file so the page needs no inline script. */
export const DOCS_SCRIPT = `'use strict';
document.querySelectorAll('[data-openapi-url]').forEach(function (node) {
  window.SwaggerUIBundle({
    domNode: node,
    url: node.getAttribute('data-openapi-url'),
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: -1,
    displayOperationId: true,
    showExtensions: true,
    displayRequestDuration: true,
    validatorUrl: null,
  });
});
`;

export const DOCS_CSS = `body { margin: 0; font-family: system-ui, sans-serif; color: #1b1b1b; }
.docs-header { padding: 16px 24px; background: #1f2a44; color: #fff; }
.docs-header h1 { margin: 0 0 6px; font-size: 24px; }
.docs-header a { color: #c8d7ff; }
.contract { padding: 8px 24px 24px; border-bottom: 1px solid #ddd; }
.contract > h2 { margin: 16px 0 0; font-size: 20px; }
.problems { padding: 8px 24px 24px; max-width: 1100px; }
.problems table { border-collapse: collapse; width: 100%; }
.problems th, .problems td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid #ddd; }
.problems tr:target { background: #fff6cc; }
`;
