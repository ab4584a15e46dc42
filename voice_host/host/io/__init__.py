"""The host's input and output: the terminal, microphone listening, speech output and the
secret files; build_io wires them from a SessionConfig."""
