/**
 * Run by scripts/build.mjs once dist/ is compiled: writes the word index over zxcvbn's lists
 * beside `_zxcvbn.js`, so that a first password check reads it instead of decompressing and
 * indexing 236,000 words (+50 MB of peak RSS). Without the file, the index is built as before.
 */
import { writeFileSync } from "node:fs";
import { buildWordIndex, packWordIndex, WORDS_FILE, wordListStamp } from "./_zxcvbn.js";

writeFileSync(WORDS_FILE, packWordIndex(buildWordIndex().toBytes(wordListStamp())));
