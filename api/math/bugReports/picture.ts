/** The picture types a bug report accepts, recognised by their first bytes, never by a declared type. */
export type PictureMediaType = 'image/png' | 'image/jpeg' | 'image/webp';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** The bytes needed to tell the types apart. */
export const PICTURE_SNIFF_BYTES = 12;

/** PNG, JPEG or WebP by magic number (WebP: a RIFF container of form type WEBP); anything else is null. */
export function sniffPictureType(head: Buffer): PictureMediaType | null {
  if (head.length >= PNG.length && head.subarray(0, PNG.length).equals(PNG)) return 'image/png';
  if (head.length >= JPEG.length && head.subarray(0, JPEG.length).equals(JPEG)) return 'image/jpeg';
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString('latin1') === 'RIFF' &&
    head.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

export const PICTURE_EXTENSIONS: Record<PictureMediaType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};
