import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/**
 * SHA-256 of a string's UTF-8 bytes, as `sha256:<64 hex>`, so the domain can keep a digest of a
 * text it no longer holds and compare a repeat with it (a closed round's text,
 * docs/domain-contract.md). `@noble/hashes` is pure JavaScript (no IO, no node:crypto), the one
 * library the domain may import besides itself (docs/decisions/0042).
 */
export function sha256Digest(text: string): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(text)))}`;
}
