#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus (checked in; rerun only to regenerate them).

protocol: client frames from docs/protocol.md's examples plus a few edge cases.
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
]
out = os.path.join(here, "corpus", "protocol")
os.makedirs(out, exist_ok=True)
for i, f in enumerate(frames):
    with open(os.path.join(out, "frame_%02d" % i), "wb") as fh:
        fh.write(f.encode() if isinstance(f, str) else f)

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
