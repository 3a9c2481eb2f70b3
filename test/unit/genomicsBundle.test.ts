import { join } from 'node:path';
import { InvalidBundleError, readBundleFormat } from '../../activities/bundles/common';
import { readGenomicsBundle } from '../../activities/bundles/genomicsBundle';
import { exclusivityOf } from '../../api/genomics/topics/presenters';
import { likePattern } from '../../api/genomics/topics/queries';
import { dedupeTags } from '../../api/genomics/topics/schemas';
import { GENOMICS_DEMO_DIR, writeGenomicsBundle } from '../helpers/genomics';

const base = { format: 'referee.genomics/1', bundle: { bundle_id: 'b-1', batch: 'batch-010' } };

async function problemsOf(manifest: object): Promise<string[]> {
  try {
    await readGenomicsBundle(await writeGenomicsBundle(manifest));
    return [];
  } catch (error) {
    if (!(error instanceof InvalidBundleError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

describe('genomics bundle manifest', () => {
  it('reads the demo bundle: its files, and nothing it refers to outside itself', async () => {
    const { sha256, storedFiles, references } = await readGenomicsBundle(GENOMICS_DEMO_DIR);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(storedFiles).toBe(8);
    expect(references).toMatchObject({ topics: [], campaigns: [], places: [] });
    expect(await readBundleFormat(GENOMICS_DEMO_DIR)).toBe('referee.genomics/1');
    expect(await readBundleFormat(join(GENOMICS_DEMO_DIR, '..', 'math-run'))).toBe('referee.math-run/1');
    expect(await readBundleFormat('/nonexistent')).toBeNull();
  });

  it('lists every problem: counts given alone or inconsistent, unknown clients, paths outside, wrong revisions', async () => {
    const file = (path: string) => ({ path, media_type: 'text/plain' });
    const problems = await problemsOf({
      ...base,
      clients: [{ client_id: 'acme', name: 'Acme' }],
      topics: [{ topic: 1, title: 't', client_ids: ['acme', 'nobody'] }],
      measurements: [
        {
          measurement_id: 'm1',
          topic: 1,
          model_id: 'x',
          scope: 'original_report',
          measured_at: '2026-01-01T00:00:00Z',
          completed: 3,
        },
        {
          measurement_id: 'm2',
          topic: 1,
          model_id: 'x',
          scope: 'public_package_rerun',
          measured_at: '2026-01-01T00:00:00Z',
          scientific_passes: 4,
          completed: 3,
          evidence: file('../outside.json'),
        },
      ],
      revisions: [{ revision_id: 'r1', topic: 2, campaign_id: 'c', file: file('p.json') }],
      publications: [
        { publication_id: 'p1', topic: 1, revision_id: 'r1', title: 't', file: file('/abs.md') },
      ],
    });
    expect(problems).toEqual([
      '$.topics.0.client_ids.1: unknown client "nobody"',
      '$.measurements.0: scientific_passes and completed are given together or not at all',
      '$.measurements.1.evidence.path: must be a relative path inside the bundle',
      '$.measurements.1.scientific_passes: must not exceed completed',
      '$.publications.0.file.path: must be a relative path inside the bundle',
      '$.publications.0.revision_id: revision "r1" belongs to another topic',
    ]);
  });

  it('refuses a wrong format, batch or scope, and duplicate ids', async () => {
    expect(await problemsOf({ ...base, format: 'referee.math-run/1' })).toHaveLength(1);
    expect(await problemsOf({ ...base, bundle: { bundle_id: 'b', batch: 'batch-1' } })).toHaveLength(1);
    const m = {
      measurement_id: 'm',
      topic: 1,
      model_id: 'x',
      scope: 'merged',
      measured_at: '2026-01-01T00:00:00Z',
    };
    expect(await problemsOf({ ...base, measurements: [m] })).toHaveLength(1);
    expect(await problemsOf({ ...base, topics: [{ topic: 1 }, { topic: 1 }] })).toHaveLength(1);
  });

  it('names topics and campaigns the bundle refers to without listing them', async () => {
    const { references } = await readGenomicsBundle(
      await writeGenomicsBundle({
        ...base,
        campaigns: [{ campaign_id: 'listed', name: 'Listed' }],
        topics: [{ topic: 1, campaign_id: 'known-elsewhere', campaign_ids: ['listed'] }],
        reports: [
          { report_id: 'r', topic: 7, title: 't', file: { path: 'r.md', media_type: 'text/markdown' } },
        ],
      }),
    );
    expect(references).toEqual({
      batch: 'batch-010',
      topics: [7],
      campaigns: ['known-elsewhere'],
      places: [
        {
          kind: 'campaign',
          key: 'known-elsewhere',
          place: { file: 'manifest.json', path: '$.topics.0.campaign_id' },
        },
        { kind: 'topic', key: '7', place: { file: 'manifest.json', path: '$.reports.0.topic' } },
      ],
    });
  });
});

describe('genomics list helpers', () => {
  it('escapes LIKE wildcards so a search is a literal substring', () => {
    expect(likePattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });

  it('de-duplicates tags exactly, keeping first occurrences in order', () => {
    expect(dedupeTags(['b', 'a', 'b', 'A', 'a'])).toEqual(['b', 'a', 'A']);
  });

  it('derives exclusivity from the client links', () => {
    expect([exclusivityOf([]), exclusivityOf(['1']), exclusivityOf(['1', '2'])]).toEqual([
      'NONE',
      'EXCLUSIVE',
      'SHARED',
    ]);
  });
});
