#!/usr/bin/python3
"""Execute a Jupyter notebook headless and write the executed copy.

Usage: run_notebook.py SOURCE.ipynb TARGET.ipynb [--kernel NAME] [--grace SECONDS]
                       [--timeout SECONDS]

Why not plain `jupyter nbconvert --execute`: the Deno kernel (2.9.6 and later) may publish a
cell's last outputs on IOPub *after* it reports `status: idle`. nbclient stops listening at
idle, so those outputs vanish at random. This runner keeps listening for a short grace period
after idle and keeps whatever still arrives for the cell.

Cells run with errors allowed, so one failing cell does not hide the outputs of the others;
the caller inspects the executed notebook for `error` outputs. The kernel's working directory is
the notebook's folder, as in Jupyter itself.
"""

import argparse
import asyncio
import os
import queue
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete


class LateOutputClient(NotebookClient):
    """An nbclient that also collects outputs published shortly after the kernel went idle."""

    def __init__(self, nb, grace, **kwargs):
        super().__init__(nb, **kwargs)
        self.grace = grace

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        went_idle = None
        while True:
            if went_idle is None:
                wait = None
            else:
                wait = self.grace - (time.monotonic() - went_idle)
                if wait <= 0:
                    return
            try:
                msg = await self.kc.iopub_channel.get_msg(timeout=wait)
            except (queue.Empty, asyncio.TimeoutError):
                return
            if msg["parent_header"].get("msg_id") != parent_msg_id:
                continue
            try:
                self.process_message(msg, cell, cell_index)
            except CellExecutionComplete:
                # Idle: from now on only wait out the grace period.
                if went_idle is None:
                    went_idle = time.monotonic()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("target")
    parser.add_argument("--kernel", default="deno")
    parser.add_argument("--grace", type=float, default=0.3)
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()

    nb = nbformat.read(args.source, as_version=4)
    folder = os.path.dirname(os.path.abspath(args.source))
    client = LateOutputClient(
        nb,
        args.grace,
        kernel_name=args.kernel,
        timeout=args.timeout,
        allow_errors=True,
        # The runner's own grace period covers late outputs; this only bounds the wait for
        # IOPub after the execute reply.
        iopub_timeout=max(4, args.grace * 4),
        resources={"metadata": {"path": folder}},
    )
    client.execute()
    nbformat.write(nb, args.target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
