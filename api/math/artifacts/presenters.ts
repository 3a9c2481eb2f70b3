import { withoutFormatCharacters } from '../files/contentDisposition';
import type { ArtifactRow, ReportPathRow, RunPathRow } from './queries';

export const artifactDownloadUrl = (artifactId: string) =>
  `/api/math/artifacts/${encodeURIComponent(artifactId)}/download`;

function presentFile(a: ArtifactRow) {
  return {
    artifact_id: a.artifact_id,
    source_path: a.source_path,
    // Shown without bidi and other format characters, which would make it read as another name.
    filename: withoutFormatCharacters(a.filename),
    media_type: a.media_type,
    size_bytes: Number(a.size_bytes),
    sha256: a.sha256,
    download_url: artifactDownloadUrl(a.artifact_id),
  };
}

export function presentTaskPaths(task: { task_id: string; run_id: string }, r: ReportPathRow) {
  return {
    task_id: task.task_id,
    run_id: task.run_id,
    report_id: r.report_id,
    source_id: r.source_id,
    ...presentFile(r),
  };
}

export function presentRunPaths(runId: string, rows: RunPathRow[]) {
  return {
    run_id: runId,
    paths: rows.map((a) => ({
      ...presentFile(a),
      kind: a.kind,
      class: a.class,
      reports: a.reports.map((r) => ({ report_id: r.report_id, source_id: r.source_id })),
    })),
  };
}
