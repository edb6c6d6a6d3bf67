"""Count the shapes present in the generated fixtures (python3 check.py)."""
import json, os, sys, collections
sys.path.insert(0, os.path.dirname(__file__))
import texts
D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
files = sorted(f for f in os.listdir(D) if f.endswith(".json"))
C = collections.defaultdict(list)

def walk(fname, s, top=True):
    sid = s["id"]
    where = f"{fname}#{sid}" + ("" if top else " (inside reblog)")
    media = s.get("media_attachments") or []
    if s.get("reblog"):
        C["boost"].append(where)
        r = s["reblog"]
        if r.get("sensitive"): C["boost of sensitive status"].append(where)
        if sum(1 for m in r["media_attachments"] if m["type"] == "image") == 4: C["boost of 4-picture status"].append(where)
        if s.get("content"): C["boost outer content NOT empty"].append(where)
        if s.get("media_attachments"): C["boost outer media NOT empty"].append(where)
        walk(fname, r, False)
        return
    if s.get("spoiler_text"):
        C["content warning (spoiler_text set)"].append(where)
        if s.get("sensitive"): C["CW + sensitive"].append(where)
    elif s.get("sensitive"):
        C["sensitive without spoiler"].append(where)
    for fr in s.get("filtered") or []:
        C[f"filtered {fr['filter']['filter_action']}"].append(where)
    types = [m["type"] for m in media]
    n_img = types.count("image")
    if types and all(t == "image" for t in types):
        C[f"{n_img} image(s) only"].append(where)
    if "gifv" in types: C["gifv"].append(where)
    if types == ["video"]: C["video only"].append(where)
    if types == ["audio"]: C["audio only"].append(where)
    if types and set(types) == {"unknown"}: C["unknown only"].append(where)
    if "image" in types and "video" in types: C["image + video mix"].append(where)
    if not types: C["no media"].append(where)
    if "gts-placeholder-attachments" in s.get("content") or "": C["GTS placeholder note for undownloaded media"].append(where)
    for m in media:
        w = f"{where} media {m['id']} ({m['type']})"
        d = m.get("description")
        if m["type"] == "image":
            if d: C["image with alt text"].append(w)
            elif d is None: C["image alt null"].append(w)
            else: C["image alt empty string"].append(w)
            if d and len(d) > 400: C["long alt text (>400 chars)"].append(w)
        if m.get("blurhash") is None: C["blurhash null"].append(w)
        if "meta" not in m: C["meta key missing"].append(w)
        elif m["meta"] is None: C["meta null"].append(w)
        elif "small" not in m["meta"] or m["meta"]["small"] == {}: C["meta without usable small"].append(w)
        if m.get("preview_url") is None: C["preview_url null"].append(w)
        if m.get("url") is None: C["url null"].append(w)
        if m.get("remote_url"): C["remote_url set"].append(w)
        if (m.get("preview_url") or "").endswith(".webp"): C["webp preview"].append(w)
        if (m.get("url") or "").endswith(".gif"): C["GIF original"].append(w)
        if m.get("url") and m.get("url") == m.get("preview_url"): C["preview_url == url"].append(w)
        if "/media_proxy/" in (m.get("url") or ""): C["Mastodon media_proxy url"].append(w)
    if 'class="invisible"' in s.get("content") or "" and 'class="ellipsis"' in s.get("content") or "":
        pass
    c = s.get("content") or ""
    if 'class="invisible"' in c and 'class="ellipsis"' in c: C["Mastodon link markup (invisible + ellipsis)"].append(where)
    if s.get("emojis") and any(f":{e['shortcode']}:" in c for e in s["emojis"]): C["custom emoji shortcode in content"].append(where)
    if any(f":{e['shortcode']}:" in s["account"]["display_name"] for e in s["account"].get("emojis", [])):
        C["custom emoji in display name"].append(where)
    # hard text
    blobs = {"display_name": s["account"]["display_name"], "content": c + (s.get("spoiler_text") or ""),
             "alt": " ".join(m.get("description") or "" for m in media)}
    for name in ["PRIDE", "FAMILY", "JP_FLAG", "KEYCAP1", "SMILE_TEXT", "SMILE_EMOJI", "WAVE_MED", "SCOTLAND",
                 "LANG_TAG_JA", "E_DECOMP", "ZALGO_C", "ZWJ", "ZWNJ", "ZWSP", "ALM", "JA_HARBOUR", "JA_HUT", "AR_HARBOUR", "HE_HUT"]:
        val = getattr(texts, name)
        for k, b in blobs.items():
            if val in b:
                C[f"text {name} in {k}"].append(where)

for f in files:
    for s in json.load(open(os.path.join(D, f), encoding="utf-8")):
        walk(f, s)
        C["statuses (top level)"].append(f)
for k in sorted(C):
    v = C[k]
    print(f"{len(v):3d}  {k}")
if "-v" in sys.argv:
    for k in sorted(C):
        print("\n##", k); [print("   ", x) for x in C[k]]
