import { useEffect, useState } from 'preact/hooks';
import { ApiError, type Download, download, sha256Hex } from './rest';
import { Markdown } from './markdown';
import { ProblemNote } from './ui';

/** Files up to this size are previewed; larger ones are only offered for download. */
const PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

interface Loaded {
  file: Download;
  text: string | null;
  imageUrl: string | null;
  /** The SHA-256 of the bytes received, compared with what the server declared. */
  verified: boolean | null;
  sha256: string;
}

const isText = (type: string) =>
  type.startsWith('text/') || type === 'application/json' || type.endsWith('+json');

/**
 * A file fetched with the key, its SHA-256 checked in the browser against the server's Repr-Digest, then
 * previewed by type (Markdown rendered safely, JSON pretty-printed, text as text, images as images) or offered
 * for download. Nothing loads until asked when `lazy` is set.
 */
export function FilePreview({ path, label, lazy = false }: { path: string; label: string; lazy?: boolean }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [wanted, setWanted] = useState(!lazy);

  useEffect(() => {
    if (!wanted) return;
    let cancelled = false;
    let imageUrl: string | null = null;
    setLoaded(null);
    setError(null);
    (async () => {
      const file = await download(path);
      const bytes = await file.blob.arrayBuffer();
      const sha256 = await sha256Hex(bytes);
      const small = bytes.byteLength <= PREVIEW_MAX_BYTES;
      const text = small && isText(file.type) ? new TextDecoder().decode(bytes) : null;
      if (small && file.type.startsWith('image/') && file.type !== 'image/svg+xml')
        imageUrl = URL.createObjectURL(file.blob);
      if (!cancelled)
        setLoaded({
          file,
          text,
          imageUrl,
          sha256,
          verified: file.declaredSha256 ? file.declaredSha256 === sha256 : null,
        });
    })().catch((e: unknown) => {
      if (!cancelled) setError(e instanceof ApiError ? e : new ApiError({ status: 0, detail: String(e) }));
    });
    return () => {
      cancelled = true;
      if (imageUrl) URL.revokeObjectURL(imageUrl);
    };
  }, [path, wanted]);

  if (!wanted)
    return (
      <button type="button" class="link" onClick={() => setWanted(true)}>
        Load {label}
      </button>
    );
  if (error) return <ProblemNote error={error} />;
  if (!loaded) return <p class="muted">Loading {label}…</p>;
  const { file, text, imageUrl, verified, sha256 } = loaded;
  return (
    <div class="file">
      <p class="file-meta">
        <span>
          {file.filename ?? label} · {file.type} · {formatBytes(file.blob.size)}
        </span>{' '}
        {verified === true && <span class="badge ok">SHA-256 verified</span>}
        {verified === false && <span class="badge bad">SHA-256 mismatch: do not trust this file</span>}{' '}
        <button type="button" class="link" onClick={() => saveFile(file)}>
          Download
        </button>
      </p>
      <p class="hash" title="SHA-256 of the bytes received">
        sha256 {sha256}
      </p>
      {verified !== false && text !== null && file.type === 'text/markdown' && <Markdown source={text} />}
      {verified !== false && text !== null && file.type !== 'text/markdown' && (
        <pre class="text-preview">{isJson(file.type) ? prettyJson(text) : text}</pre>
      )}
      {verified !== false && imageUrl && (
        <img class="image-preview" src={imageUrl} alt={`Preview of ${label}`} />
      )}
    </div>
  );
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json');

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function saveFile(file: Download): void {
  const url = URL.createObjectURL(file.blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = file.filename ?? 'download';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
