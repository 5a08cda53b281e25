"""The library as analysts keep it: what is being indexed and how each file fared (a
journal that survives crashes), watched folders, collections and the scope of a question.

`state.LibraryState` is its SQLite store (`library.sqlite3` in the data folder);
`watch` turns file events into ingestion; `collections` and `scope` name sets of
documents and turn them into search filters. Qt-free: the window and the CLI share it.
"""
