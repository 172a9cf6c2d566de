import assert from "node:assert/strict";
import {
  detectMediaType,
  infoTypeFromName,
  mediaTypeFromContent,
  mediaTypeFromName,
} from "../../lib/server/media.ts";
import { INFO_TYPES } from "../../lib/registry/file_formats.ts";

Deno.test("infoTypeFromName maps common extensions to Terrain info types", () => {
  const cases: Record<string, string> = {
    "a.csv": "csv",
    "A.CSV": "csv",
    "b.tsv": "tsv",
    "c.tab": "tsv",
    "genome.fa": "fasta",
    "genome.fasta": "fasta",
    "reads.fq": "fastq",
    "reads.fastq": "fastq",
    "run.py": "python",
    "run.sh": "sh",
    "run.pl": "perl",
    "calls.vcf": "vcf",
    "calls.vcf.gz": "vcfgz",
    "peaks.bed": "bed",
    "peaks.bed.gz": "bedgz",
    "aln.bam": "bam",
    "genes.gff3": "gff",
    "genes.gtf": "gtf",
    "tree.nex": "nexus",
    "tree.nwk": "newick",
    "paper.pdf": "pdf",
    "bundle.zip": "zip",
    "tool.jar": "jar",
    "notes.txt": "unknown",
    "README": "unknown",
    ".bashrc": "unknown",
    "table.parquet": "unknown",
  };
  for (const [name, type] of Object.entries(cases)) {
    assert.equal(infoTypeFromName(name), type, name);
  }
});

Deno.test("every info type the name map produces is one Terrain accepts", () => {
  const names = ["a.csv", "a.vcf.gz", "a.bed.gz", "a.bb", "a.bw", "a.aln", "a.hmm", "a.sto"];
  for (const name of names) assert.ok(INFO_TYPES.includes(infoTypeFromName(name)), name);
  assert.equal(INFO_TYPES.length, 55);
  assert.ok(INFO_TYPES.includes("unknown"));
});

Deno.test("mediaTypeFromName knows data formats", () => {
  assert.equal(mediaTypeFromName("a.csv"), "text/csv");
  assert.equal(mediaTypeFromName("a.tsv"), "text/tab-separated-values");
  assert.equal(mediaTypeFromName("a.json"), "application/json");
  assert.equal(mediaTypeFromName("a.png"), "image/png");
  assert.equal(mediaTypeFromName("a.parquet"), "application/vnd.apache.parquet");
  assert.equal(mediaTypeFromName("a.arrow"), "application/vnd.apache.arrow.file");
  assert.equal(mediaTypeFromName("a.csv.gz"), "application/gzip");
  assert.equal(mediaTypeFromName("noext"), undefined);
});

Deno.test("mediaTypeFromContent sniffs signatures, UTF-8 text and binary", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  assert.equal(
    mediaTypeFromContent(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)),
    "image/png",
  );
  assert.equal(mediaTypeFromContent(bytes(0x1f, 0x8b, 8, 0)), "application/gzip");
  assert.equal(
    mediaTypeFromContent(new TextEncoder().encode("PAR1....")),
    "application/vnd.apache.parquet",
  );
  assert.equal(mediaTypeFromContent(new TextEncoder().encode("%PDF-1.7")), "application/pdf");
  assert.equal(mediaTypeFromContent(new TextEncoder().encode("héllo wörld")), "text/plain");
  assert.equal(mediaTypeFromContent(new Uint8Array()), "text/plain");
  assert.equal(mediaTypeFromContent(bytes(0xff, 0xfe, 0x41)), "application/octet-stream");
  assert.equal(mediaTypeFromContent(bytes(0x41, 0x00, 0x42)), "application/octet-stream");
  // A multi-byte character cut by the sniff window is still text.
  const cut = new TextEncoder().encode("abc€").subarray(0, 5);
  assert.equal(mediaTypeFromContent(cut), "text/plain");
});

Deno.test("detectMediaType prefers a specific name, else sniffs", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(detectMediaType("a.csv", png), "text/csv");
  assert.equal(detectMediaType("disguised.txt", png), "image/png");
  assert.equal(detectMediaType("README", new TextEncoder().encode("hi")), "text/plain");
  assert.equal(detectMediaType("blob", new Uint8Array([0, 1])), "application/octet-stream");
});
