"""Package data: the embedded gold corpora.

Layer (docs/architecture.md): beside ``jsoncodec`` and ``textsource``; package data only, it imports nothing.
"""
