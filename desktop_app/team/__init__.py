"""Team libraries: a shared PostgreSQL + pgvector server next to the local library.

`admin` sets a server up (schema, users, collections, grants, audit), `trial`
starts a throw-away server from the pgserver package, `connection` turns a
library from the settings into a connected index (password from the keyring,
the air gap opened for that host only), `commands` is the CLI.
"""
