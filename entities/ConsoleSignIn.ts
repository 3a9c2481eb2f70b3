import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A sign-in under way at the OpenID Provider, used once: its state, nonce and PKCE verifier derive from the cookie's secret. */
// USING btree (expires_at): the periodic purge's (api/kernel/housekeeping.ts)
@Index('console_sign_ins_expires_at', { synchronize: false })
@Entity({ name: 'console_sign_ins' })
export class ConsoleSignIn {
  @PrimaryColumn({ type: 'bytea', name: 'secret_hash' }) secretHash!: Buffer;
  @Column({ type: 'timestamptz', name: 'expires_at' }) expiresAt!: Date;
}
