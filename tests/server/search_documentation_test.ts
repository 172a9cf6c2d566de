import assert from "node:assert/strict";
import { Prng } from "../../lib/server/prng.ts";
import { searchDocumentation } from "../../lib/server/search_documentation.ts";

Deno.test("search documentation lists the nine clauses with typed, summarised arguments", () => {
  const doc = searchDocumentation(new Prng(1));
  assert.deepEqual(Object.keys(doc.clauses).sort(), [
    "created",
    "label",
    "metadata",
    "modified",
    "owner",
    "path",
    "permissions",
    "size",
    "tag",
  ]);
  const expectedArgs: Record<string, Record<string, string>> = {
    created: { from: "string", to: "string" },
    modified: { from: "string", to: "string" },
    label: { label: "string", exact: "bool" },
    metadata: {
      attribute: "string",
      value: "string",
      unit: "string",
      metadata_types: "[]string",
      attribute_exact: "bool",
      value_exact: "bool",
      unit_exact: "bool",
    },
    owner: { owner: "string" },
    path: { prefix: "string" },
    permissions: {
      users: "[]string",
      permission: "string",
      permission_recurse: "bool",
      exact: "bool",
    },
    size: { from: "string", to: "string" },
    tag: { tags: "[]string" },
  };
  for (const [name, clause] of Object.entries(doc.clauses)) {
    assert.deepEqual(Object.keys(clause), ["summary", "args"]);
    assert.match(clause.summary, /^[A-Z].+\.$/, `${name} summary is a sentence`);
    const types = Object.fromEntries(Object.entries(clause.args).map(([k, v]) => [k, v.type]));
    assert.deepEqual(types, expectedArgs[name]);
    for (const arg of Object.values(clause.args)) {
      assert.deepEqual(Object.keys(arg), ["type", "summary"]);
      assert.match(arg.summary, /^[A-Z].+\.$/);
    }
  }
});

Deno.test("sortFields holds the seven fields in a seeded, varying order", () => {
  const fields = ["creator", "dateCreated", "dateModified", "fileSize", "id", "label", "path"];
  const prng = new Prng(4);
  const orders = new Set<string>();
  for (let i = 0; i < 10; i++) {
    const doc = searchDocumentation(prng);
    assert.deepEqual([...doc.sortFields].sort(), fields);
    orders.add(doc.sortFields.join(","));
  }
  assert.ok(orders.size > 5);
  assert.deepEqual(
    searchDocumentation(new Prng(4)).sortFields,
    searchDocumentation(new Prng(4)).sortFields,
  );
});
