import { defineOperation, groupDigits, z } from "#kit";
import { countParam, idsCost, MAX_COUNT, randomBytes, randomnessParam, uuidText } from "./_id.js";

export default defineOperation({
  area: "id",
  name: "uuid-v4",
  summary: "Random UUIDs, version 4 (RFC 9562)",
  description: [
    "Makes `count` (1 to 1,000) version 4 UUIDs (RFC 9562 section 5.4): 122 random bits from " +
      "the system's cryptographically secure generator, with the version (4) and variant " +
      "(`10`) bits set, written in lowercase as `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`. " +
      "Every call draws new bits, so every call answers differently, and answers are sent " +
      "with `Cache-Control: no-store`.",
    "`randomness` is for reproducible fixtures and tests only: hexadecimal of exactly 16 " +
      "bytes per UUID (32 × `count` digits), used in place of the drawn bits (the version " +
      "and variant bits are then written over it). A UUID made from bits you chose is as " +
      "guessable as your choice: never use one as a secret or a unique key. `randomness` " +
      "that is not hexadecimal, or not of that length, is refused with a 422 at `randomness`.",
  ].join("\n\n"),
  input: z.object({
    count: countParam("UUIDs"),
    randomness: randomnessParam(
      `For tests: hex of 16 bytes per UUID to use instead of drawn bits (at most ${groupDigits(32 * MAX_COUNT)} digits).`,
      32 * MAX_COUNT,
    ),
  }),
  output: z.object({
    uuids: z.array(z.string()).describe("The UUIDs, lowercase, in the 8-4-4-4-12 form."),
  }),
  nondeterministic:
    "Without `randomness`, every call draws new random bits and answers different UUIDs.",
  examples: [
    {
      title: "From given bits, for a reproducible test",
      input: { randomness: "00112233445566778899aabbccddeeff" },
      output: { uuids: ["00112233-4455-4677-8899-aabbccddeeff"] },
    },
    {
      title: "Two from given bits: the version and variant bits are written over them",
      input: {
        count: 2,
        randomness: "ffffffffffffffffffffffffffffffff00000000000000000000000000000000",
      },
      output: {
        uuids: ["ffffffff-ffff-4fff-bfff-ffffffffffff", "00000000-0000-4000-8000-000000000000"],
      },
    },
  ],
  cost: ({ count }) => idsCost(count, 36),
  handler: ({ count, randomness }) => {
    const bytes = randomBytes(randomness, 16 * count);
    const uuids: string[] = [];
    for (let i = 0; i < count; i++) {
      const uuid = bytes.subarray(16 * i, 16 * i + 16);
      uuid[6] = ((uuid[6] as number) & 0x0f) | 0x40;
      uuid[8] = ((uuid[8] as number) & 0x3f) | 0x80;
      uuids.push(uuidText(uuid));
    }
    return { uuids };
  },
});
