import assert from "node:assert/strict";
import {
  choiceOption,
  exclusive,
  intOption,
  parseOptions,
  splitCommand,
  UsageError,
} from "../../lib/cli/args.ts";

Deno.test("splitCommand skips global options and their values to find the command", () => {
  assert.deepEqual(splitCommand(["--url", "http://h/terrain", "--debug", "ls", "-l", "/x"]), {
    command: "ls",
    before: ["--url", "http://h/terrain", "--debug"],
    after: ["-l", "/x"],
  });
  assert.deepEqual(splitCommand(["--url=http://h/terrain", "stat"]).command, "stat");
  assert.deepEqual(splitCommand(["--token", "ls", "tree"]).command, "tree");
  assert.equal(splitCommand(["--help"]).command, undefined);
  assert.equal(splitCommand(["--", "ls"]).command, undefined);
});

Deno.test("parseOptions accepts global options anywhere and command options", () => {
  const parsed = parseOptions(["-l", "/a", "--url", "http://h", "/b"], {
    long: { type: "boolean", short: "l", help: "" },
  });
  assert.equal(parsed.values.long, true);
  assert.equal(parsed.values.url, "http://h");
  assert.deepEqual(parsed.positionals, ["/a", "/b"]);
});

Deno.test("parse errors say what was wrong, suggest, and never echo a value", () => {
  const options = { long: { type: "boolean" as const, short: "l", help: "" } };
  const message = (args: string[]) => {
    try {
      parseOptions(args, options);
    } catch (error) {
      assert.ok(error instanceof UsageError);
      return error.message;
    }
    assert.fail("no error");
  };
  assert.equal(message(["--lnog"]), "unknown option --lnog (did you mean --long?)");
  assert.equal(message(["--tokn=s3cret"]), "unknown option --tokn (did you mean --token?)");
  assert.equal(message(["--zzzzzz"]), "unknown option --zzzzzz");
  assert.equal(message(["--url"]), "--url needs a value (URL)");
  assert.equal(message(["--long=yes"]), "--long is a switch and takes no value");
});

Deno.test("option value checks", () => {
  assert.equal(intOption({ n: " 5 " }, "n", 0), 5);
  assert.equal(intOption({}, "n", 0), undefined);
  for (const bad of ["", "1.5", "-1", "1e400", "abc"]) {
    assert.throws(() => intOption({ n: bad }, "n", 0), UsageError, bad);
  }
  assert.equal(choiceOption({ order: "desc" }, "order", ["asc", "desc"]), "desc");
  assert.throws(
    () => choiceOption({ order: "dsc" }, "order", ["asc", "desc"]),
    /--order must be one of asc, desc, got "dsc" \(did you mean desc\?\)/,
  );
  exclusive({ csv: true, json: false }, ["csv", "json"]);
  assert.throws(
    () => exclusive({ csv: true, json: true }, ["csv", "json"]),
    /--csv and --json cannot be combined/,
  );
});
