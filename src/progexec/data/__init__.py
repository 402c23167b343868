"""Package data: the embedded gold corpora."""
