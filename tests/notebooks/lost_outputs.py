#!/usr/bin/python3
"""Count outputs lost by plain `jupyter nbconvert --execute` with the Deno kernel.

Usage: lost_outputs.py RUNS NOTEBOOK.ipynb... [--kernel NAME]

For each notebook: one reference run with `tern notebook` (which reads every cell's outputs to
the end, so it loses nothing), then RUNS plain nbconvert runs. An output is lost when
a cell's reference has an output of a kind (execute_result, display_data, stream, error) and
the plain run's cell has none of that kind. Prints one line per notebook and a total.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import nbformat

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.path.join(HERE, "..", "..", "cli.ts")


def kinds(path):
    nb = nbformat.read(path, as_version=4)
    return [{o["output_type"] for o in c.get("outputs", [])} for c in nb.cells if c.cell_type == "code"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", type=int)
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--kernel", default="deno")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TERRAIN_")}
    env["NO_COLOR"] = "1"
    grand = 0
    with tempfile.TemporaryDirectory() as tmp:
        for source in args.notebooks:
            name = os.path.splitext(os.path.basename(source))[0]
            ref = os.path.join(tmp, f"{name}.ref.ipynb")
            subprocess.run(["deno", "run", "-A", CLI, "notebook", source, "--output", ref,
                            "--python", sys.executable], env=env, capture_output=True)
            expected = kinds(ref)
            lost_runs, lost_outputs, details = 0, 0, []
            for run in range(args.runs):
                out = os.path.join(os.path.dirname(os.path.abspath(source)), f".lost-{name}-{run}.ipynb")
                subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
                                f"--ExecutePreprocessor.kernel_name={args.kernel}", "--output",
                                os.path.abspath(out), source], env=env, check=True, capture_output=True)
                got = kinds(out)
                os.remove(out)
                missing = [(i, k) for i, want in enumerate(expected) for k in sorted(want - got[i])]
                if missing:
                    lost_runs += 1
                    lost_outputs += len(missing)
                    details.append(f"run {run + 1}: " + ", ".join(f"cell {i + 1} {k}" for i, k in missing))
            grand += lost_outputs
            print(f"{name}: {lost_runs} of {args.runs} runs lost outputs ({lost_outputs} outputs)", flush=True)
            for line in details:
                print(f"  {line}", flush=True)
    print(f"total lost outputs: {grand}")


if __name__ == "__main__":
    main()
