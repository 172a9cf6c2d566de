/**
 * The files of the shared-cache tests: `f<i>.csv`, each with rows of its own.
 *
 * @module
 */

/** The content of file `i`: 20 to 32 rows naming the file, so a row of another file shows. */
export function manyCsv(i: number): string {
  let text = "file,row,value\n";
  for (let row = 0; row < 20 + (i % 13); row++) text += `${i},${row},${(i * 31 + row) % 97}\n`;
  return text;
}
