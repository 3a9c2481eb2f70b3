import type { ComponentChildren, JSX } from 'preact';

/**
 * A small Markdown renderer that builds Preact elements, never HTML strings: raw HTML in a report is shown as
 * the text it is, and links keep only http(s), mailto and in-page targets. It covers what reports use
 * (headings, paragraphs, lists, quotes, fenced code, rules, emphasis, inline code, links); anything else
 * shows as plain text.
 */
export function Markdown({ source }: { source: string }): JSX.Element {
  return <div class="markdown">{blocks(source.replace(/\r\n?/g, '\n').split('\n'))}</div>;
}

function blocks(lines: string[]): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)(.*)$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      out.push(
        <pre key={out.length}>
          <code>{body.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      // Report headings sit below the page's own h1/h2: shift them down two levels to keep the outline.
      const level = Math.min(6, heading[1].length + 2);
      const Tag = `h${level}` as 'h3';
      out.push(<Tag key={out.length}>{inline(heading[2])}</Tag>);
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push(<hr key={out.length} />);
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quoted.push(lines[i++].replace(/^\s*>\s?/, ''));
      out.push(<blockquote key={out.length}>{blocks(quoted)}</blockquote>);
      continue;
    }
    const listItem = /^\s*([-*+]|\d{1,9}[.)])\s+/;
    if (listItem.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && (listItem.test(lines[i]) || /^\s{2,}\S/.test(lines[i]))) {
        if (listItem.test(lines[i])) items.push(lines[i].replace(listItem, ''));
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i++;
      }
      const children = items.map((item, n) => <li key={n}>{inline(item)}</li>);
      out.push(ordered ? <ol key={out.length}>{children}</ol> : <ul key={out.length}>{children}</ul>);
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      lines[i].trim() &&
      !/^(#{1,6}\s|\s*(```|~~~)|\s*>|\s*([-*+]|\d{1,9}[.)])\s+)/.test(lines[i])
    ) {
      paragraph.push(lines[i++].trim());
    }
    if (paragraph.length === 0) paragraph.push(lines[i++].trim());
    out.push(<p key={out.length}>{inline(paragraph.join(' '))}</p>);
  }
  return out;
}

const INLINE =
  /(`+)([\s\S]*?)\1|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]]+)\]\(([^)\s]+)\)/g;

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    const key = out.length;
    if (match[1]) out.push(<code key={key}>{match[2]}</code>);
    else if (match[3] ?? match[4]) out.push(<strong key={key}>{inline(match[3] ?? match[4])}</strong>);
    else if (match[5] ?? match[6]) out.push(<em key={key}>{inline(match[5] ?? match[6])}</em>);
    else {
      const href = safeHref(match[8]);
      out.push(
        href ? (
          <a key={key} href={href} rel="noopener noreferrer nofollow" target="_blank">
            {inline(match[7])}
          </a>
        ) : (
          match[0]
        ),
      );
    }
    last = at + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Only web, mail and in-page links; `javascript:`, `data:` and the rest stay text. */
export function safeHref(target: string): string | null {
  if (target.startsWith('#')) return target;
  try {
    const url = new URL(target);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:'
      ? url.toString()
      : null;
  } catch {
    return null;
  }
}
