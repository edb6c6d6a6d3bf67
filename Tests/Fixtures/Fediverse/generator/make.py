"""Regenerate every fixture: python3 make.py (writes into the parent directory)."""
import os, json
import fmt, mastodon, pleroma, gotosocial, pixelfed

OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = [
    ("mastodon-home.json", mastodon.build, {}),
    ("pleroma-public.json", pleroma.build_public, {}),
    ("pleroma-home.json", pleroma.build_home, {}),
    ("akkoma-home.json", pleroma.build_akkoma, {}),
    ("gotosocial-public.json", gotosocial.build_public, {"go_escape": True}),
    ("gotosocial-home.json", gotosocial.build_home, {"go_escape": True}),
    ("pixelfed-public.json", pixelfed.build_public, {"ensure_ascii": True}),
    ("pixelfed-home.json", pixelfed.build_home, {"ensure_ascii": True}),
    ("pixelfed-public-native.json", pixelfed.build_native, {"ensure_ascii": True}),
]
for name, fn, kw in FILES:
    data = fn()
    text = fmt.dumps(data, width=140, **kw)
    assert json.loads(text) == json.loads(json.dumps(data)), name
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{name}: {len(data)} statuses, {len(text.encode())} bytes")
