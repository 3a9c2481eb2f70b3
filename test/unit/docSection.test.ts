import { readDocSection, replaceDocSection, sectionMarkers } from '../../bench/docSection';

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
