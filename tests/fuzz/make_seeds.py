#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus (checked in; rerun only to regenerate them).

protocol: client frames from docs/protocol.md's examples plus a few edge cases.
http: raw HTTP requests (no target uses them yet: see docs/testing.md).
engine_<game>: byte strings in engine_fuzz.cpp's input format (variant, option mode, players, first
seat, dice seed, then operations), biased towards listed commands so most play a game to its end.
"""
import json, os, random

here = os.path.dirname(os.path.abspath(__file__))

frames = [
    '{"type":"hello","protocol":1,"name":"Oma Inge","id":1}',
    '{"type":"hello","protocol":1,"name":"Ben","id":"a-string-id","token":"0123456789abcdef0123456789abcdef"}',
    '{"type":"hello","protocol":4294967297,"name":"x"}',
    '{"type":"hello","protocol":1,"name":"\\u202eevil\\u202c \\ud83c\\udf84"}',
    '{"type":"hello","protocol":1,"name":"   "}',
    '{"type":"create_room","game":"happy_holidays","options":{"maxPlayers":3},"id":2}',
    '{"type":"create_room","game":"unterm_baum","options":{"maxPlayers":2,"assignSeconds":"off"},"id":2}',
    '{"type":"create_room","game":"christmas_penguins"}',
    '{"type":"join_room","room":"K7M2QX","as":"player","id":3}',
    '{"type":"join_room","room":"k7m-2qx","as":"spectator","last_seq":0,"id":3}',
    '{"type":"join_room","room":"866U3T","last_seq":18446744073709551615}',
    '{"type":"leave_room","id":4}',
    '{"type":"chat","text":"Frohe Weihnachten!","id":5}',
    '{"type":"chat","text":"line one\\nline two\\t\\u0007"}',
    '{"type":"set_options","options":{"maxPlayers":4,"giftsPerColour":5},"id":6}',
    '{"type":"start_game","first_seat":1,"id":7}',
    '{"type":"start_game","first_seat":-1}',
    '{"type":"action","action":{"kind":"roll"},"id":8}',
    '{"type":"action","action":{"kind":"move","from":{"tree":0},"to":{"seat":0,"row":0,"slot":0}},"id":6}',
    '{"type":"action","action":{"kind":"use_stone","stone":"green","floe":3,"to":[1,-2]},"id":10}',
    '{"type":"action","action":{"kind":7}}',
    '{"type":"kick","player":"p_4f1c9a2b7d3e8f60","id":9}',
    '{"type":"transfer_host","player":"p_642b50faf87d469a"}',
    '{"type":"add_bot","id":11}',
    '{"type":"remove_bot","seat":2,"id":12}',
    '{"type":"remove_bot","seat":1e3}',
    '{"type":"close_room","id":13}',
    '{"type":"no_such_type","id":14}',
    '{"id":1.5,"type":"hello"}',
    '{"type":"hello","id":"' + 'x' * 64 + '","protocol":1,"name":"n"}',
    '[1,2,3]',
    b'{"type":"chat","text":"\xff\xfe"}',  # not UTF-8
    '{"type":"hello","protocol":1,"name":"a","name":"b"}',
    '{"a":' * 40 + '1' + '}' * 40,
    '{"type":"skip","seat":1,"id":15}',
    '{"type":"readmit","player":"p_642b50faf87d469a"}',
    # Issue 30: nesting at and beyond the limit (32), a BOM, a NUL after the JSON, C1 and U+2028 in names.
    '{"type":"create_room","game":"happy_holidays","options":{"maxPlayers":' + '[' * 30 + ']' * 30 + '}}',
    '{"type":"set_options","options":{"maxPlayers":' + '[' * 31 + ']' * 31 + '}}',
    b'\xef\xbb\xbf{"type":"hello","protocol":1,"name":"x"}',
    b'{"type":"hello","protocol":1,"name":"x"}\x00{"type":"chat"}',
    '{"type":"hello","protocol":1,"name":"Oma\\u0085Inge\\u2028"}',
    '{"type":"hello","protocol":1,"name":"x","token":""}',
]
out = os.path.join(here, "corpus", "protocol")
os.makedirs(out, exist_ok=True)
for i, f in enumerate(frames):
    with open(os.path.join(out, "frame_%02d" % i), "wb") as fh:
        fh.write(f.encode() if isinstance(f, str) else f)

# http: raw requests, for the HTTP target the integrator adds once the request handling is a pure
# function (docs/testing.md, "Fuzzing").
requests = [
    b"GET / HTTP/1.1\r\nHost: localhost:8080\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
    b"HEAD /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET /r/K7M2QX?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"GET /watch/K7M2QX HTTP/1.0\r\n\r\n",
    b"GET /js/app.js HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /js HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /. HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /../etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /%2e%2e/etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET //etc/passwd HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /ws HTTP/1.1\r\nHost: localhost:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: https://evil.example\r\n\r\n",
    b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: null\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    b"GET / HTTP/1.1\r\nHost: a\r\nX-Forwarded-For: 203.0.113.7, 10.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",
    b"GET /" + b"a" * 300 + b" HTTP/1.1\r\nHost: a\r\n\r\n",
    b"BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n",
]
out = os.path.join(here, "corpus", "http")
os.makedirs(out, exist_ok=True)
for i, r in enumerate(requests):
    with open(os.path.join(out, "request_%02d" % i), "wb") as fh:
        fh.write(r)

variants = {"happy_holidays": 6, "unterm_baum": 5, "christmas_penguins": 5}
listed = list(range(0, 6))
weighted_ops = listed * 8 + [0x80 | x for x in listed] + [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
for game, n in variants.items():
    out = os.path.join(here, "corpus", "engine_" + game)
    os.makedirs(out, exist_ok=True)
    rng = random.Random(game)
    for i in range(14):
        data = bytearray([i % n, 0 if i < 10 else 2, rng.randrange(256), rng.randrange(256),
                          rng.randrange(256), rng.randrange(256)])
        if i >= 10:  # option mode 2: overwrite a few keys with fuzzed values
            data[1:1] = bytes(rng.randrange(256) for _ in range(6))
        for _ in range(rng.choice([60, 200, 500, 900])):
            data.append(rng.choice(weighted_ops))
            data.extend(rng.randrange(256) for _ in range(3))
        with open(os.path.join(out, "seq_%02d" % i), "wb") as fh:
            fh.write(bytes(data))
