import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A sign-in under way at the OpenID Provider, used once: its state, nonce and PKCE verifier derive from the cookie's secret. */
@Entity({ name: 'console_sign_ins' })
export class ConsoleSignIn {
  @PrimaryColumn({ type: 'bytea', name: 'secret_hash' })
  secretHash!: Buffer;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;
}
