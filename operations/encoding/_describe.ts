/** Description paragraphs the `encoding/*` operations share, so they say the same thing. */
import { groupDigits } from "#kit";
import { MAX_TEXT_LENGTH } from "../hash/_bytes.js";

/** How an encoder's `text` becomes bytes. */
export const TEXT_ENCODING_PARAGRAPH =
  "`textEncoding` says how `text` becomes the bytes to encode: `utf8` (the default) takes the " +
  "UTF-8 encoding of the characters, `hex` pairs of hexadecimal digits (either case), and " +
  "`base64` standard base64 (padding optional), so binary data can be re-encoded. Decoding " +
  "`text` is strict, as in the hashes: a malformed value is refused with a 422 located at `text`. " +
  `\`text\` may be empty and at most ${groupDigits(MAX_TEXT_LENGTH)} characters long.`;

/** How a decoder writes its bytes. */
export const OUTPUT_ENCODING_PARAGRAPH =
  "`encoding` says how the decoded bytes are written: `utf8` (the default) as text, `hex` " +
  "(lowercase) or `base64` (standard, padded). Bytes that are not valid UTF-8 (a cut-short or " +
  "overlong sequence, a surrogate) asked for as `utf8` are refused with a 422 at `encoding` " +
  "naming the byte offset, never replaced with U+FFFD; a leading byte-order mark is kept as " +
  "U+FEFF. The answer also gives the number of decoded bytes. " +
  `\`text\` may be empty and at most ${groupDigits(MAX_TEXT_LENGTH)} characters long.`;
