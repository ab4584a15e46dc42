"""The languages a game can be played in, each with its resources in ``host/lang/<lang>/``.
A module of its own so that the command line knows them without loading narration."""

LANGS = ("en", "fr")
