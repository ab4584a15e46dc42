"""One module per command, named after the command; each has ``add_arguments(parser)``
and ``run(args) -> int`` (voice_host/cli.py dispatches)."""
