"""inspect_ai tasks and scorers that judge with progexec (the scorers and ``@task`` definitions are in
:mod:`.tasks`, which imports inspect_ai; importing this package does not)."""
