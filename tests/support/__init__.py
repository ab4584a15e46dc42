"""Helpers shared by test modules (and the benchmarks that reuse the test sets): scripted
games, the companion phone's requests, the intent and spoken-command case sets. A test
module imports from here, never from another test module."""
