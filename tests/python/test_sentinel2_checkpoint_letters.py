"""The sentinel2-stream example as it is, with its dead_letter line, under --checkpoint against a real
`nats-server -js`: test_sentinel2_checkpoint's scenes with two malformed scene messages among them (one not JSON, one
whose acquisition time is no number). A run SIGKILLed after an epoch's commit, between an epoch's rasters and its
messages, after a checkpoint, or with an hour between checkpoints (committed epochs taken back), then restarted,
leaves each malformed message's letter exactly once in ${out}-bad-scenes.jsonl, naming its subject and stream
sequence with its text, and the messages and rasters of the uninterrupted run over the good scenes only."""
import json
import signal

import numpy as np
import pytest

from test_nats import NatsServer, publish
from test_sentinel2_checkpoint import (KILL_POINTS, assert_clean_output, example_copy, messages_and_rasters,  # noqa: F401
                                       run_example, uninterrupted)
from test_sentinel2_stream import pytestmark  # noqa: F401

MALFORMED = {2: "{not json", 6: '{"scene_id": "x", "tile": "29RKH", "acquired": "yesterday", "blue": "b.tif"}'}


def with_malformed(evs):
    """The scene messages with the malformed ones before the scenes of their index, and the stream sequences they get
    (a fresh stream numbers from 1)."""
    messages, bad = [], {}
    for k, scene in enumerate(evs):
        if k in MALFORMED:
            messages.append(("sentinel2.scenes", MALFORMED[k]))
            bad[len(messages)] = MALFORMED[k]
        messages.append(("sentinel2.scenes", json.dumps(scene)))
    return messages, bad


@pytest.mark.parametrize("kill_at,interval", KILL_POINTS)
def test_a_killed_and_restarted_example_dead_letters_each_malformed_scene_once(recflow_bin, tmp_path, uninterrupted,
                                                                               kill_at, interval):
    evs, want_rows, want_rasters = uninterrupted
    messages, bad = with_malformed(evs)
    server = NatsServer(tmp_path / "store")
    try:
        publish(server.url, "SCENES", "sentinel2.scenes", messages)
        publish(server.url, "EVI", "sentinel2.evi", [])
        out, path = tmp_path / "out", example_copy(tmp_path)
        killed = run_example(recflow_bin, path, server.url, out, tmp_path / "ckpt", kill_at, interval)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        done = run_example(recflow_bin, path, server.url, out, tmp_path / "ckpt")
        assert done.returncode == 0, done.stderr
        rows, rasters = messages_and_rasters(server.url, out)
    finally:
        server.stop()
    text = (tmp_path / "out-bad-scenes.jsonl").read_text()
    letters = [json.loads(line) for line in text.splitlines()]
    assert text.endswith("\n") and len(letters) == len(bad), letters
    for letter, (sequence, payload) in zip(letters, sorted(bad.items())):
        assert letter["step"] == "scenes" and letter["row"] == payload, letter
        assert letter["error"].startswith(f"subject sentinel2.scenes, stream sequence {sequence}: "), letter
    assert rows == want_rows
    assert rasters.keys() == want_rasters.keys()
    for name, values in rasters.items():
        assert np.array_equal(values, want_rasters[name], equal_nan=True), name
    assert_clean_output(out, rows)
