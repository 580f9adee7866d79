import { fileTypeFromBuffer } from 'file-type';

/** The accepted types (DEC-ASSET-001), in the order messages list them. */
export const ACCEPTED_MIMETYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'application/pdf',
  'video/mp4',
] as const;
export type AcceptedMimetype = (typeof ACCEPTED_MIMETYPES)[number];

/** The usual file name extension of each accepted type. */
export const FILE_EXTENSIONS: Readonly<Record<AcceptedMimetype, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'video/mp4': 'mp4',
};

/** The usual extension of a stored type; `bin` for a type this service does not accept (any more). */
export function fileExtension(mimetype: string): string {
  return Object.hasOwn(FILE_EXTENSIONS, mimetype) ? FILE_EXTENSIONS[mimetype as AcceptedMimetype] : 'bin';
}

const IMAGE_MIMETYPES: readonly AcceptedMimetype[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

/** Bytes file-type needs to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

export type SniffResult =
  { accepted: true; mimetype: AcceptedMimetype } | { accepted: false; detected: string | undefined };

/** The type of a file from its first bytes; the client's Content-Type and file name are never asked. */
export async function sniffType(head: Uint8Array): Promise<SniffResult> {
  const type = await fileTypeFromBuffer(head);
  const mimetype = type?.mime;
  if (mimetype !== undefined && (ACCEPTED_MIMETYPES as readonly string[]).includes(mimetype)) {
    return { accepted: true, mimetype: mimetype as AcceptedMimetype };
  }
  return { accepted: false, detected: mimetype };
}

export function isImage(mimetype: string): boolean {
  return (IMAGE_MIMETYPES as readonly string[]).includes(mimetype);
}
