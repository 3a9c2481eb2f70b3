import { loadConfig } from '../../config';

describe('TEMPORAL_GRPC_COMPRESSION', () => {
  it('sends Temporal uncompressed messages unless gzip is asked for', () => {
    expect(loadConfig({}).temporal.grpcCompression).toBe('none');
    expect(loadConfig({ TEMPORAL_GRPC_COMPRESSION: 'gzip' }).temporal.grpcCompression).toBe('gzip');
  });

  it('refuses a codec the SDK does not offer', () => {
    expect(() => loadConfig({ TEMPORAL_GRPC_COMPRESSION: 'brotli' })).toThrow(/TEMPORAL_GRPC_COMPRESSION/);
  });
});
