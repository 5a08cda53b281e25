"""Entry point of the frozen Acervo bundle (PyInstaller runs this script as `__main__`).

Everything goes to the normal CLI: no arguments opens the window, `--self-test` checks the
installed artifact offline.
"""

from __future__ import annotations

import multiprocessing
import sys


def main() -> int:
    from desktop_app.cli import main as cli_main

    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    multiprocessing.freeze_support()  # torch/joblib may spawn helpers; they must not re-run main
    raise SystemExit(main())
