#!/usr/bin/env python3
"""Regenerates the frame-size captures (their .want files are hand-written, not generated).

frame-size.fires.sse    data_loaded frame whose data field is exactly 262145 bytes (256 KiB + 1)  -> warn
frame-size.fires-2.sse  data_loaded frame whose data field is exactly 1048577 bytes (1 MiB + 1)   -> error
frame-size.ok.sse       data_loaded frame whose data field is exactly 100000 bytes                 -> nothing
Run from anywhere: python3 testdata/rules/gen-frame-size.py
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def frame(obj):
    return json.dumps(obj, separators=(",", ":"))


def build(name, rid, minute, size):
    ts = lambda ms: "2026-06-03T07:%02d:%02d.%03dZ" % (minute, ms // 1000, ms % 1000)
    env = lambda et, ms: {"event_type": et, "version": "0.5", "timestamp": ts(ms), "response_id": rid}
    key = {"ids": [{"id": "SKU_00001"}, {"id": "SKU_00002"}, {"id": "SKU_00003"}]}
    loading = dict(env("data_loading", 150), data={"id": "bulk-grid", "type": "product_grid", "key": key})
    items = []
    n = 0
    loaded = None
    # add items until close to the target, then pad the last item's blurb to hit the exact size
    while True:
        n += 1
        items.append({"id": "SKU_%05d" % n, "name": "Catalog item %d" % n, "price": 10 + n % 90, "blurb": ""})
        loaded = dict(env("data_loaded", 300), data={"id": "bulk-grid", "type": "product_grid", "key": key, "items": items})
        if len(frame(loaded).encode()) + 200 > size:
            break
    pad = size - len(frame(loaded).encode())
    assert pad >= 0
    items[-1]["blurb"] = "x" * pad
    data = frame(loaded)
    assert len(data.encode()) == size, (len(data), size)
    blocks = [
        ("response_id", frame(env("response_id", 0))),
        ("data_loading", frame(loading)),
        ("data_loaded", data),
        ("text", frame(dict(env("text", 450), chunk="Here is the whole catalog."))),
        ("completed", frame(env("completed", 600))),
    ]
    out = "".join("event: %s\ndata: %s\n\n" % b for b in blocks) + "data: [DONE]\n\n"
    with open(os.path.join(HERE, name), "w") as f:
        f.write(out)


build("frame-size.fires.sse", "resp_size_warn_262145", 10, 262145)
build("frame-size.fires-2.sse", "resp_size_error_1048577", 20, 1048577)
build("frame-size.ok.sse", "resp_size_ok_100000", 30, 100000)
