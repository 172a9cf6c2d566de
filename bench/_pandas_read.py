"""pandas' reading of the files bench/pandas_diff.ts generates: the referee.

Reads a JSON list of cases on stdin ({name, path, reader, kwargs}) and prints one JSON object per
case: its columns, dtypes and rows with every cell made plain (None for NaN/NaT/None, ISO 8601 for
timestamps, "Infinity"/"-Infinity" for infinities), or the error pandas raised.

Also writes workbooks with openpyxl when asked ({"write_xlsx": path}), so the workbook the diff
reads was written by the library pandas itself reads Excel with.
"""

import datetime
import decimal
import json
import math
import sys

import pandas as pd


def plain(value):
    if value is None:
        return None
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        if value.tzinfo is not None:
            value = value.tz_convert("UTC").tz_localize(None)
            return {"datetime": value.isoformat(), "utc": True}
        return {"datetime": value.isoformat()}
    if isinstance(value, datetime.datetime):
        return plain(pd.Timestamp(value))
    if isinstance(value, datetime.date):
        return {"date": value.isoformat()}
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)  # JSON numbers would round it on the other side
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    if hasattr(value, "item"):  # numpy scalars
        return plain(value.item())
    return value


def read(case):
    reader = getattr(pd, case["reader"])
    frame = reader(case["path"], **case.get("kwargs", {}))
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    return {
        "columns": [str(c) for c in frame.columns],
        "dtypes": [str(t) for t in frame.dtypes],
        "rows": [[plain(v) for v in row] for row in frame.itertuples(index=False, name=None)],
    }


def write_xlsx(path):
    from openpyxl import Workbook

    book = Workbook()
    first = book.active
    first.title = "Stations"
    first.append(["station", "zip", "opened", "elevation", "total"])
    first.append(["Alpha", "02134", datetime.date(2012, 1, 31), 12.5, "=D2*2"])
    first.append(["Beta", "10001", datetime.datetime(2013, 6, 1, 10, 30), 7, "=D3*2"])
    first.append(["Gamma", None, datetime.date(2014, 2, 28), None, None])
    first.append(["Delta", "99501", datetime.date(2015, 12, 1), 3.25, 6.5])
    first.merge_cells("A4:B4")
    second = book.create_sheet("Readings")
    second.append(["when", "value", "flag"])
    second.append([datetime.date(2020, 1, 1), 1, True])
    second.append([datetime.date(2020, 1, 2), 2.5, False])
    second.append([datetime.date(2020, 1, 3), "n/a", None])
    odd = book.create_sheet("Odd")
    odd.append(["id", None, "pct", "at", "day", "code", "big"])
    rows = [
        [1, None, 0.25, datetime.time(10, 30), datetime.date(1900, 2, 1), "007", 2**53 + 1],
        [2, None, 0.5, datetime.time(23, 59, 59), datetime.date(1999, 12, 31), "010", 3],
    ]
    for row in rows:
        odd.append(row)
    for cell in odd["C"][1:]:
        cell.number_format = "0%"
    for cell in odd["E"][1:]:
        cell.number_format = "[$-409]mmmm d, yyyy;@"
    book.save(path)
    write_pandas_xlsx(path.replace("book.xlsx", "pandas.xlsx"))


def write_pandas_xlsx(path):
    """A workbook as `DataFrame.to_excel` writes it: the index as a first column named ''."""
    frame = pd.DataFrame(
        {
            "site": ["a", "b", None],
            "value": [1.5, float("nan"), 3.0],
            "count": [1, 2, 3],
            "ok": [True, False, True],
            "when": pd.to_datetime(["2020-01-01", "2020-01-02 10:30", None]),
        },
        index=[10, 20, 30],
    )
    frame.to_excel(path)


def main():
    cases = json.load(sys.stdin)
    out = []
    for case in cases:
        if "write_xlsx" in case:
            write_xlsx(case["write_xlsx"])
            out.append({"written": case["write_xlsx"]})
            continue
        try:
            out.append({"name": case["name"], **read(case)})
        except Exception as error:  # the referee reports, it does not stop
            out.append({"name": case["name"], "error": f"{type(error).__name__}: {error}"})
    json.dump(out, sys.stdout, allow_nan=False, default=str)


main()
