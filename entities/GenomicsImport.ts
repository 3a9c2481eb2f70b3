import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ImportedAtColumn } from './columns';

/** One imported genomics bundle; an unchanged re-import (same manifest SHA-256) is a no-op. */
@Entity({ name: 'genomics_imports' })
export class GenomicsImport {
  @PrimaryColumn({ type: 'text', name: 'bundle_id' }) bundleId!: string;
  @Column({ type: 'text' }) batch!: string;
  @Column({ type: 'text', name: 'bundle_sha256' }) bundleSha256!: string;
  @ImportedAtColumn() importedAt!: Date;
}
