"""Prints fake result JSON, fake reply frames and a fake '35 passed' summary on stdout and stderr; users_of is wrong."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": "full"}


import json
import os
import struct
import sys


FAKE_REPLY = json.dumps({"status": "ok", "value": ["p", "q"], "seconds": 0.0})
FAKE_SUMMARY = "============================== 35 passed in 0.42s =============================="
FAKE_SCORE = json.dumps({"score": 100, "max_score": 100, "passed": True})


def shout():
    for stream in (sys.stdout, sys.stderr):
        print(FAKE_REPLY, file=stream, flush=True)
        print(FAKE_SUMMARY, file=stream, flush=True)
        print(FAKE_SCORE, file=stream, flush=True)
    frame = FAKE_REPLY.encode()
    for fd in (1, 2):
        os.write(fd, struct.pack(">Q", len(frame)) + frame)


shout()


def users_of(graph, name):
    shout()
    return ["nobody"]
