import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDocSection, replaceDocSection, sectionMarkers, writeDocSection } from '../../bench/docSection';

describe('generated doc sections', () => {
  const { begin, end } = sectionMarkers('results');
  const doc = `# Bench\n\nprose stays\n\n${begin}\nold table\n${end}\n\nafter stays\n`;

  it('replaces only the body between the markers', () => {
    const next = replaceDocSection(doc, 'results', '| a |\n|---|\n| 1 |\n');
    expect(next).toBe(`# Bench\n\nprose stays\n\n${begin}\n| a |\n|---|\n| 1 |\n${end}\n\nafter stays\n`);
    expect(readDocSection(next, 'results')).toBe('| a |\n|---|\n| 1 |');
  });

  it('is idempotent: writing the same body twice gives the same doc', () => {
    const once = replaceDocSection(doc, 'results', 'x');
    expect(replaceDocSection(once, 'results', 'x')).toBe(once);
  });

  it('refuses a doc without the named section and leaves other sections alone', () => {
    expect(() => replaceDocSection(doc, 'growth', 'x')).toThrow(/no section "growth"/);
    expect(readDocSection(doc, 'growth')).toBeUndefined();
  });
});

describe('writing a generated section to a doc', () => {
  it('writes the body and lays the doc out as prettier does, so lint accepts it', async () => {
    const { begin, end } = sectionMarkers('results');
    const path = join(await mkdtemp(join(tmpdir(), 'doc-section-')), 'doc.md');
    await writeFile(path, `# Results\n\n${begin}\n\n${end}\n`);
    writeDocSection(path, 'results', '| a | b |\n|---|---|\n| 1 | 22 |');
    const written = await readFile(path, 'utf8');
    expect(readDocSection(written, 'results')).toBe('| a   | b   |\n| --- | --- |\n| 1   | 22  |');
    expect(written).toBe(`# Results\n\n${begin}\n\n| a   | b   |\n| --- | --- |\n| 1   | 22  |\n\n${end}\n`);
  });
});
