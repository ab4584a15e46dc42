"""Make mid-game saves in save version 1 (fixtures for the save-migration test); written by the code of that version:
    PYTHONPATH=. python tests/host/saves/make_v1_saves.py GAME DEAL STEPS OUT.json
(then the undo history was cut to its last three steps, to keep the files small)."""
import random, shutil, sys
from pathlib import Path
from voice_host.host.io import Heard, HeardKind, ListenRequest, TextOutput
from voice_host.host.registry import make_adapter, new_game, registration
from voice_host.host.session import Session, SessionOptions
from voice_host.host.store import EventLog
import io as _io
from voice_host.host.secrets import Delivery, Via

game, deal, steps, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
reg = registration(game)
options = {**reg.defaults(), **reg.demo_seats, "deal": deal, "lang": "en", "seed": 7}
state = new_game(game, options)
adapter = make_adapter(game, options, secret_sink=lambda line: Delivery(Via.FILE, f"secret-{line.to}.txt"))

class Bots:
    def __init__(self):
        self.n = 0
        self.rng = random.Random(8)
        self.session = None
    def listen(self, request: ListenRequest) -> Heard:
        self.n += 1
        if self.n > steps:
            return Heard(HeardKind.END)
        s = self.session
        if request.purpose == "confirm":
            return Heard(HeardKind.SPEECH, text="yes", speaker=request.expected[0] if request.expected else None)
        speaker, text = reg.bots(adapter, s.state, request.prompt, self.rng)
        return Heard(HeardKind.SPEECH, text=text, speaker=speaker)
    def close(self): pass

bots = Bots()
save = Path("/tmp/i19r") / f"{game}-{deal}.json"
session = Session(adapter=adapter, state=state, rng=random.Random(7), output=TextOutput(_io.StringIO()),
                  listener=bots, log=EventLog(None), game_options=options,
                  options=SessionOptions(confirm="never", save_path=save))
bots.session = session
session.run(fresh=True)
shutil.copy(save, out)
print(game, deal, session.state.phase(), bots.n)
