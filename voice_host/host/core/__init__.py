"""The host's core: the session loop, the adapter protocol, the registry, narration,
refusals, saves and the value types that cross the seams. Imports nothing of host.io or
host.cli."""
