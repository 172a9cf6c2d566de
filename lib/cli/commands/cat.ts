/**
 * `tern cat`: files' bytes to stdout, streamed as they arrive (constant memory, any size), one
 * after the other.
 *
 * @module
 */

import { asUsage } from "../args.ts";
import { checkRefs, type Command, type CommandContext, eachPath } from "../command.ts";

/**
 * `tern cat PATH...`.
 *
 * @example
 * ```sh
 * tern cat /iplant/home/shared/tern_samples/formats/README.txt
 * tern cat /iplant/home/shared/tern_samples/formats/penguins.csv | head -3
 * ```
 */
export const cat: Command = {
  name: "cat",
  summary: "print files' bytes to stdout, streaming",
  usage: "PATH...",
  description: "Streams each file's bytes to stdout unchanged, in the order given.",
  options: {},
  examples: [
    "tern cat /iplant/home/shared/tern_samples/formats/README.txt",
    "tern cat /iplant/home/shared/tern_samples/formats/penguins.csv | head -3",
    "tern cat /iplant/home/shared/tern_samples/formats/penguins.csv.gz | gunzip | wc -l",
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { positionals } = context.args;
  checkRefs(positionals);
  const store = await context.store();
  const out = context.io.stdout;
  return await eachPath(context, positionals, async (path) => {
    // Stopping early (a closed pipe, Ctrl-C) leaves the loop, which cancels the download.
    for await (const chunk of await asUsage(() => store.file(path)).stream()) {
      await out.bytes(chunk);
    }
  });
}
