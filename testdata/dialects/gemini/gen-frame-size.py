#!/usr/bin/env python3
"""Regenerates the Gemini frame-size captures (their .want files are hand-written).

valid-image-output.sse   an image-output turn whose inlineData chunk is ~1.3 MiB of data: no client
                         of the dialect fails on it (python-genai's aiohttp reader takes lines of
                         up to 4 MiB, js-genai and the httpx reader have no limit) -> no frame-size
frame-size.fires.sse     the near miss: the image chunk's data is 4 MiB - 8 + 1 bytes (its line with
                         "data: " and CRLF is one byte over python-genai's 4 MiB) -> warn
The image bytes are a repeated pattern (not an image), so the files compress in git.
Run from anywhere: python3 testdata/dialects/gemini/gen-frame-size.py
"""
import base64, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
RID = "gImgOut7kQ2mVb3nPx9RzL4"


def frame(obj):
    return json.dumps(obj, separators=(",", ":"))


def chunk(parts, final=False):
    cand = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if final:
        cand["finishReason"] = "STOP"
    obj = {"candidates": [cand], "modelVersion": "gemini-2.5-flash-image", "responseId": RID}
    if final:
        obj["usageMetadata"] = {"promptTokenCount": 9, "candidatesTokenCount": 1290, "totalTokenCount": 1299}
    return frame(obj)


def image_chunk(size):
    """The inlineData chunk whose JSON is exactly size bytes."""
    empty = chunk([{"inlineData": {"mimeType": "image/png", "data": ""}}])
    n = size - len(empty)
    assert n > 0
    raw = bytes(range(256)) * (n // 256 + 2)
    data = base64.b64encode(raw).decode()[:n]
    out = chunk([{"inlineData": {"mimeType": "image/png", "data": data}}])
    assert len(out) == size, (len(out), size)
    return out


def build(name, size):
    frames = [
        chunk([{"text": "Here is the lighthouse at dusk."}]),
        image_chunk(size),
        chunk([{"text": ""}], final=True),
    ]
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write("".join("data: %s\r\n\r\n" % fr for fr in frames))


build("valid-image-output.sse", 1363148)  # 1.3 MiB
build("frame-size.fires.sse", 4 * 1024 * 1024 - 8 + 1)
