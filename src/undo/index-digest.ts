/**
 * A digest of what a git index file says about content, leaving out the file times, sizes and
 * inodes git records beside each entry. Git rewrites the index for many reasons that change no
 * entry (`git status` refreshing those times, a checkout of files already as the index has them):
 * a snapshot keyed by this digest is still recognised as the same after such a rewrite.
 *
 * The format (docs: gitformat-index): a 12-byte header (`DIRC`, version 2-4, entry count), the
 * entries, then extensions, then a checksum. Each entry is 40 bytes of stat data (the mode at
 * 24..28), the object id, 16 bits of flags (and 16 more in version 3+ when flagged), then the
 * path: NUL-terminated and padded to a multiple of 8 (versions 2 and 3), or prefix-compressed
 * (version 4).
 */
import { createHash } from "node:crypto";

const STAT_BYTES = 40;
const MODE_AT = 24;
const EXTENDED_FLAG = 0x4000;

/**
 * The digest of an index file's bytes, or null when they cannot be read entry by entry: an
 * unknown version, a damaged file, or a split index (whose entries live in another file). The
 * stat data in `data` are blanked as it goes: pass bytes nobody needs afterwards.
 */
export function indexContentDigest(data: Buffer, oidBytes: number): string | null {
  if (data.length < 12 || data.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = data.readUInt32BE(8);
  const end = data.length - oidBytes;
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flagsAt = at + STAT_BYTES + oidBytes;
    if (flagsAt + 2 > end) return null;
    const extended = version >= 3 && (data.readUInt16BE(flagsAt) & EXTENDED_FLAG) !== 0;
    const nameAt = flagsAt + (extended ? 4 : 2);
    // Version 4 starts the name with a varint (how much of the previous name to drop).
    let nulAt = nameAt;
    if (version === 4) while (nulAt < end && (data[nulAt] ?? 0) & 0x80) nulAt++;
    nulAt = data.indexOf(0, version === 4 ? nulAt + 1 : nameAt);
    if (nulAt < 0 || nulAt >= end) return null;
    const next = version === 4 ? nulAt + 1 : at + ((nulAt - at + 8) & ~7);
    // The stat data but the mode is blanked and the rest hashed whole.
    data.fill(0, at, at + MODE_AT);
    data.fill(0, at + MODE_AT + 4, at + STAT_BYTES);
    at = next;
  }
  const entriesEnd = at;
  // Extensions only cache or record what the entries already say, except a split index's link.
  while (at + 8 <= end) {
    if (data.toString("latin1", at, at + 4) === "link") return null;
    at += 8 + data.readUInt32BE(at + 4);
  }
  return at === end ? createHash("sha1").update(data.subarray(0, entriesEnd)).digest("hex") : null;
}
