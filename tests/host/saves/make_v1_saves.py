"""Make a mid-game save in save version 1 (the fixtures of the save-migration test), with the
code of that version (commit 1034532) on PYTHONPATH::

    PYTHONPATH=OLD_CHECKOUT python tests/host/saves/make_v1_saves.py GAME DEAL STEPS OUT.json \
        [SEED [BOT_SEED]]

(v1-GAME-DEAL.json: 14 steps, seeds 7 and 8; v1-resistance-table-answer.json: 41 steps,
seeds 1 and 1.)

Demo players (the registration's bots) play STEPS utterances of a seeded game, then the input
ends and the session's own save is copied to OUT.json. The fixtures then had their undo
history cut to the last three steps, to keep them small."""

import io
import random
import shutil
import sys
from pathlib import Path

from voice_host.host.core.registry import make_adapter, new_game, registration
from voice_host.host.core.secrets import Delivery, Via
from voice_host.host.core.session import Session, SessionOptions
from voice_host.host.core.store import EventLog
from voice_host.host.core.values import Heard, HeardKind, ListenRequest
from voice_host.host.io.terminal import TextOutput

game, deal, steps, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
seed = int(sys.argv[5]) if len(sys.argv) > 5 else 7
reg = registration(game)
options = {**reg.defaults(), **reg.demo_seats, "deal": deal, "lang": "en", "seed": seed}
adapter = make_adapter(game, options,
                       secret_sink=lambda line: Delivery(Via.FILE, f"secret-{line.to}.txt"))


class Bots:
    def __init__(self) -> None:
        self.n = 0
        self.rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else seed + 1)
        self.session: Session | None = None

    def listen(self, request: ListenRequest) -> Heard:
        self.n += 1
        if self.n > steps:
            return Heard(HeardKind.END)
        assert self.session is not None
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text="yes",
                         speaker=request.expected[0] if request.expected else None)
        speaker, text = reg.bots(adapter, self.session.state, request.prompt, self.rng)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)

    def close(self) -> None:
        pass


bots = Bots()
save = out.with_suffix(".session.json")
session = Session(adapter=adapter, state=new_game(game, options), rng=random.Random(seed),
                  output=TextOutput(io.StringIO()), listener=bots, log=EventLog(None),
                  game_options=options, options=SessionOptions(confirm="never", save_path=save))
bots.session = session
session.run(fresh=True)
shutil.move(save, out)
print(game, deal, session.state.phase(), bots.n)
