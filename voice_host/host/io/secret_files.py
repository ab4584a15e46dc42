"""Host mode without a private channel: each player's secrets go to a file of their own."""

from __future__ import annotations

import os
import re
from pathlib import Path

from voice_host.host.core.secrets import SPOKEN, Delivery, Via
from voice_host.host.core.values import Line


class SecretFiles:
    """Host mode without a private channel: each player's secrets go to a file named for
    them, which only that player should open."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path_for(self, player: str) -> Path:
        safe = re.sub(r"[^\w-]+", "_", player, flags=re.UNICODE).strip("_") or "player"
        return self.folder / f"secret-{safe}.txt"

    def __call__(self, line: Line) -> Delivery:
        if not line.to:
            return SPOKEN
        path = self.path_for(line.to)
        # only this computer's user may read the secrets, like the save file
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fchmod(fd, 0o600)  # a file left by an older version is made private too
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(line.text + "\n")
        # what the host says aloud: the file's name, not a long path (the folder is printed
        # on the screen at the start)
        return Delivery(Via.FILE, path.name)
