/**
 * pandas' JSON layouts, as pandas 1.5 writes them with `df.to_json(orient=...)`, read over
 * loopback from the embedded server: each reads to the frame of its records layout, or is
 * refused naming the layout and the option that reads it.
 */
import assert from "node:assert/strict";
import pl from "../../polars.ts";
import { ParseError } from "../../lib/data/errors.ts";
import { DATA, dataStore } from "./_store.ts";

// df = pd.DataFrame({"site": ["north", "south", "east"], "depth": [12, 7, 3],
//                    "ratio": [0.25, None, 1.5], "ok": [True, False, True]})
const LAYOUTS = {
  records: '[{"site":"north","depth":12,"ratio":0.25,"ok":true},{"site":"south","depth":7,' +
    '"ratio":null,"ok":false},{"site":"east","depth":3,"ratio":1.5,"ok":true}]',
  columns: '{"site":{"0":"north","1":"south","2":"east"},"depth":{"0":12,"1":7,"2":3},' +
    '"ratio":{"0":0.25,"1":null,"2":1.5},"ok":{"0":true,"1":false,"2":true}}',
  index: '{"0":{"site":"north","depth":12,"ratio":0.25,"ok":true},"1":{"site":"south",' +
    '"depth":7,"ratio":null,"ok":false},"2":{"site":"east","depth":3,"ratio":1.5,"ok":true}}',
  split: '{"columns":["site","depth","ratio","ok"],"index":[0,1,2],"data":[["north",12,0.25,' +
    'true],["south",7,null,false],["east",3,1.5,true]]}',
  table: '{"schema":{"fields":[{"name":"index","type":"integer"},{"name":"site","type":' +
    '"string"},{"name":"depth","type":"integer"},{"name":"ratio","type":"number"},{"name":' +
    '"ok","type":"boolean"}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[{"index"' +
    ':0,"site":"north","depth":12,"ratio":0.25,"ok":true},{"index":1,"site":"south","depth":7,' +
    '"ratio":null,"ok":false},{"index":2,"site":"east","depth":3,"ratio":1.5,"ok":true}]}',
  values: '[["north",12,0.25,true],["south",7,null,false],["east",3,1.5,true]]',
};

const path = (layout: string) => `${DATA}/${layout}.json`;

Deno.test("every pandas JSON layout reads to the frame of its records", async () => {
  const files = Object.fromEntries(Object.entries(LAYOUTS).map(([k, v]) => [path(k), v]));
  await using served = await dataStore(files);
  const store = served.connect();
  const expected = await store.file(path("records")).dataframe();
  assert.deepEqual(expected.shape, { height: 3, width: 4 });
  for (const layout of ["columns", "index", "split", "table"]) {
    const frame = await store.file(path(layout)).dataframe();
    assert.ok(frame.frameEqual(expected), `${layout}: ${frame}`);
    const named = await store.file(path(layout)).dataframe({ jsonLayout: layout as "columns" });
    assert.ok(named.frameEqual(expected), layout);
  }
  // No names in the values layout: column_1, column_2, ... as for a headerless CSV.
  const values = await store.file(path("values")).dataframe();
  assert.deepEqual(values.columns, ["column_1", "column_2", "column_3", "column_4"]);
  assert.deepEqual(values.rows(), expected.rows());
  // Through the cache copy as well as from memory.
  const again = await store.file(path("columns")).dataframe({ cache: false });
  assert.ok(again.frameEqual(expected));
});

Deno.test("numbers in every layout read as written: past 2^53 not rounded, 1.0 still a float", async () => {
  // pandas writes int64 exactly and a float column's whole values as 1.0.
  const big = "9007199254740993";
  const files = {
    [path("records")]: `[{"id":${big},"x":1.0},{"id":2,"x":2.0}]`,
    [path("columns")]: `{"id":{"0":${big},"1":2},"x":{"0":1.0,"1":2.0}}`,
    [path("index")]: `{"0":{"id":${big},"x":1.0},"1":{"id":2,"x":2.0}}`,
    [path("split")]: `{"columns":["id","x"],"index":[0,1],"data":[[${big},1.0],[2,2.0]]}`,
    [path("values")]: `[[${big},1.0],[2,2.0]]`,
  };
  await using served = await dataStore(files);
  const store = served.connect();
  for (const layout of Object.keys(files).map((p) => p.slice(DATA.length + 1, -5))) {
    const frame = await store.file(path(layout)).dataframe();
    const [id, x] = frame.columns;
    assert.deepEqual(frame.dtypes, [pl.Int64, pl.Float64], layout);
    assert.deepEqual(frame.getColumn(id).cast(pl.String).toArray(), [big, "2"], layout);
    assert.deepEqual(frame.getColumn(x).toArray(), [1, 2], layout);
  }
});

Deno.test("a layout that is not the one asked for, or cannot be told, is refused by name", async () => {
  const square = '{"0":{"0":1,"1":2},"1":{"0":3,"1":4}}';
  await using served = await dataStore({
    [path("columns")]: LAYOUTS.columns,
    [path("square")]: square,
  });
  const store = served.connect();
  await assert.rejects(store.file(path("columns")).dataframe({ jsonLayout: "split" }), {
    name: "ParseError",
    message: `"${path("columns")}" is not in pandas' "split" JSON layout: it is in "columns" ` +
      'layout; pass jsonLayout: "columns" to read it.',
  });
  await assert.rejects(store.file(path("square")).dataframe(), (error: unknown) => {
    assert.ok(error instanceof ParseError);
    assert.match(error.message, /pass jsonLayout: "columns" or jsonLayout: "index"\.$/);
    return true;
  });
  const byColumn = await store.file(path("square")).dataframe({ jsonLayout: "columns" });
  assert.deepEqual(byColumn.rows(), [[1, 3], [2, 4]]);
  const byRow = await store.file(path("square")).dataframe({ jsonLayout: "index" });
  assert.deepEqual(byRow.rows(), [[1, 2], [3, 4]]);
  await assert.rejects(store.file(path("square")).dataframe({ jsonLayout: "tabel" as "table" }), {
    name: "BadRequestError",
  });
});

Deno.test("a split or table layout whose parts have the wrong shape is refused saying which part", async () => {
  const files = {
    [path("split_columns")]: '{"columns":"ab","data":[[1]]}',
    [path("split_row")]: '{"columns":["a"],"data":[[1],null]}',
    [path("table_key")]: '{"schema":{"primaryKey":"index"},"data":[{"a":1}]}',
    [path("table_row")]: '{"schema":{},"data":[{"a":1},[2]]}',
  };
  await using served = await dataStore(files);
  const store = served.connect();
  const refused = async (name: string, why: string) =>
    await assert.rejects(store.file(path(name)).dataframe(), {
      name: "ParseError",
      message: `"${path(name)}" has the keys of pandas' "${name.split("_")[0]}" JSON layout, ` +
        `but ${why}.`,
    });
  await refused("split_columns", 'its "columns" is not an array');
  await refused("split_row", 'row 1 of its "data" is not an array');
  await refused("table_key", 'its "schema.primaryKey" is not an array of names');
  await refused("table_row", 'row 1 of its "data" is not an object');
});
