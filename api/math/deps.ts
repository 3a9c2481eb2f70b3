import type { VerifiedObjects } from '../shared/verifiedObjects';

/** What the math service's handlers need beyond the kernel's dependencies (built by server.ts). */
declare module '../kernel/deps' {
  interface ServiceDeps {
    /** Downloads already verified, kept on local disk (verified file downloads); absent: every download reads S3. */
    verifiedCache?: VerifiedObjects;
  }
}
