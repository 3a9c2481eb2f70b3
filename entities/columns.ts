import { Column, JoinColumn, PrimaryGeneratedColumn } from 'typeorm';

/*
 * The columns most tables share, declared once: the migrations define them alike, and
 * test/integration/entitiesMatchMigrations.test.ts holds every entity to its table.
 */

/** `id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY`. */
export const IdentityPrimaryColumn = () =>
  PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' });

/** `created_at timestamptz NOT NULL DEFAULT now()`. */
export const CreatedAtColumn = () =>
  Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' });

/** `updated_at timestamptz NOT NULL DEFAULT now()`. */
export const UpdatedAtColumn = () =>
  Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' });

/** `imported_at timestamptz NOT NULL DEFAULT now()`: when an import last wrote the row. */
export const ImportedAtColumn = () =>
  Column({ type: 'timestamptz', name: 'imported_at', default: () => 'now()' });

/** The join column of the foreign key `constraint`: `column` references the other table's `references` (its id). */
export const ForeignKey = (constraint: string, column: string, references = 'id') =>
  JoinColumn({ name: column, referencedColumnName: references, foreignKeyConstraintName: constraint });
