"""`python -m desktop_app` → the headless CLI."""

from desktop_app.cli import main

raise SystemExit(main())
