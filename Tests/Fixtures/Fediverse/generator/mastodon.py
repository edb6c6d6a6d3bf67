"""Mastodon 4.4-style authenticated home timeline (GET /api/v1/timelines/home)."""
from ids import mastodon_id, hexname, id_path
from texts import *
from bh import PALETTE, PALETTE_U

HOST = "social.example.org"
FILES = "files.example.org"
VIEWER_USER = "wanderer"

def emoji(code, eid, category=None, remote=False):
    base = f"https://{FILES}/{'cache/' if remote else ''}custom_emojis/images/{id_path(str(eid).zfill(9))}"
    h = hexname()
    e = {"shortcode": code, "url": f"{base}/original/{h}.png", "static_url": f"{base}/static/{h}.png",
         "visible_in_picker": not remote}
    if category:
        e["category"] = category
    return e

def account(aid, username, display_name, domain=None, note="", emojis=None, bot=False, group=False,
            locked=False, created="2023-04-12", last="2025-05-10", avatar=True, header=True, fields=None,
            followers=120, following=80, statuses=340, hide_collections=None, roles=None):
    local = domain is None
    acct = username if local else f"{username}@{domain}"
    if local:
        url, uri = f"https://{HOST}/@{username}", f"https://{HOST}/users/{username}"
    else:
        url, uri = f"https://{domain}/@{username}", f"https://{domain}/users/{username}"
    cache = "" if local else "cache/"
    av = f"https://{FILES}/{cache}accounts/avatars/{id_path(aid)}/original/{hexname()}.png" if avatar else f"https://{HOST}/avatars/original/missing.png"
    hd = f"https://{FILES}/{cache}accounts/headers/{id_path(aid)}/original/{hexname()}.jpeg" if header else f"https://{HOST}/headers/original/missing.png"
    a = {"id": str(aid), "username": username, "acct": acct, "display_name": display_name,
         "locked": locked, "bot": bot, "discoverable": True, "indexable": False, "group": group,
         "created_at": f"{created}T00:00:00.000Z", "note": note, "url": url, "uri": uri,
         "avatar": av, "avatar_static": av, "header": hd, "header_static": hd,
         "followers_count": followers, "following_count": following, "statuses_count": statuses,
         "last_status_at": last, "hide_collections": hide_collections}
    if local:
        a["noindex"] = False
    a["emojis"] = emojis or []
    a["roles"] = roles or []
    a["fields"] = fields or []
    return a

def media_url(mid, style, ext, remote=False):
    return f"https://{FILES}/{'cache/' if remote else ''}media_attachments/files/{id_path(mid)}/{style}/{hexname()}.{ext}"

def image(mid, w, h, desc, blurhash=PALETTE_U["hut"], remote_url=None, focus=None, sw=None):
    remote = remote_url is not None
    h_ = hexname()
    base = f"https://{FILES}/{'cache/' if remote else ''}media_attachments/files/{id_path(mid)}"
    sw = sw or 640
    sh = round(sw * h / w)
    meta = {"original": {"width": w, "height": h, "size": f"{w}x{h}", "aspect": w / h},
            "small": {"width": sw, "height": sh, "size": f"{sw}x{sh}", "aspect": sw / sh}}
    if focus:
        meta["focus"] = {"x": focus[0], "y": focus[1]}
    return {"id": str(mid), "type": "image", "url": f"{base}/original/{h_}.jpeg",
            "preview_url": f"{base}/small/{h_}.jpeg", "remote_url": remote_url, "preview_remote_url": None,
            "text_url": None, "meta": meta, "description": desc, "blurhash": blurhash}

def link(url):
    """Mastodon 4.3+ TextFormatter.shortened_link markup (our reimplementation)."""
    import re
    prefix = re.match(r"^(https?://(www\.)?|xmpp:)", url).group(0)
    rest = url[len(prefix):]
    display, suffix = rest[:30], rest[30:]
    cutoff = len(rest) > 30
    if len(suffix) == 1:
        display, suffix, cutoff = display + suffix, "", False
    return (f'<a href="{url}" target="_blank" rel="nofollow noopener" translate="no">'
            f'<span class="invisible">{prefix}</span><span class="{"ellipsis" if cutoff else ""}">{display}</span>'
            f'<span class="invisible">{suffix}</span></a>')

def tag_local(name):
    return f'<a href="https://{HOST}/tags/{name}" class="mention hashtag" rel="tag">#<span>{name}</span></a>'

def tag_remote(domain, name):
    return f'<a href="https://{domain}/tags/{name}" class="mention hashtag" rel="tag nofollow noopener" target="_blank">#<span>{name}</span></a>'

def mention_local(username):
    return f'<span class="h-card" translate="no"><a href="https://{HOST}/@{username}" class="u-url mention">@<span>{username}</span></a></span>'

def status(ts, acc, content, media=None, sensitive=False, spoiler="", lang="en", tags=(), emojis=None,
           mentions=None, filtered=None, reblog=None, card=None, app=None, replies=0, boosts=0, faves=0,
           favourited=False, reblogged=False, bookmarked=False, edited_at=None, in_reply=None, sid=None,
           visibility="public", own=False):
    sid = sid or mastodon_id(ts)
    local = acc["acct"] == acc["username"]
    if reblog is not None:
        uri = f"{acc['uri']}/statuses/{sid}/activity"
        url = uri if local else None
    elif local:
        uri, url = f"{acc['uri']}/statuses/{sid}", f"{acc['url']}/{sid}"
    else:
        dom = acc["acct"].split("@")[1]
        rid = mastodon_id(ts)
        uri, url = f"https://{dom}/users/{acc['username']}/statuses/{rid}", f"https://{dom}/@{acc['username']}/{rid}"
    s = {"id": sid, "created_at": ts, "in_reply_to_id": in_reply[0] if in_reply else None,
         "in_reply_to_account_id": in_reply[1] if in_reply else None, "sensitive": sensitive,
         "spoiler_text": spoiler, "visibility": visibility, "language": lang, "uri": uri, "url": url,
         "replies_count": replies, "reblogs_count": boosts, "favourites_count": faves, "edited_at": edited_at,
         "favourited": favourited, "reblogged": reblogged, "muted": False, "bookmarked": bookmarked}
    if own and reblog is None:
        s["pinned"] = False
    s["content"] = content
    s["filtered"] = filtered or []
    s["reblog"] = reblog
    if app is not None:
        s["application"] = app
    s["account"] = acc
    s["media_attachments"] = media or []
    s["mentions"] = mentions or []
    s["tags"] = [{"name": t, "url": f"https://{HOST}/tags/{t}"} for t in tags]
    s["emojis"] = emojis or []
    s["card"] = card
    s["poll"] = None
    s["quote"] = None
    return s

def fr(fid, title, action, context=("home",), kw=None, st=None, expires=None):
    return {"filter": {"id": str(fid), "title": title, "context": list(context), "expires_at": expires,
                       "filter_action": action},
            "keyword_matches": kw, "status_matches": st}

def build():
    E_lantern = emoji("lantern", 48213, "travel")
    E_tent = emoji("tent_lamp", 48217, "travel")
    E_rfog = emoji("fogbank", 91177, remote=True)

    me = account(110245118377201664, VIEWER_USER, f"Wanderer {WAVE_MED}", note="<p>Slow travel, slower photos.</p>", statuses=57, header=False)
    mika = account(110245118377299968, "mika", f"Mika {JP_FLAG} {JA_HARBOUR} :lantern:", emojis=[E_lantern],
                   note=f"<p>{JA_HARBOUR}を撮っています。 {tag_local('harbour')}</p>",
                   fields=[{"name": "Portfolio", "value": link("https://mika.example.com/portfolio"), "verified_at": "2024-11-02T09:13:44.512+00:00"}])
    ellis = account(110245118377365504, "ellis", f"Ellis {FAMILY} {KEYCAP1}", avatar=False, header=False, hide_collections=True)
    cafe = account(110245118377431040, "cafelens", f"Caf{E_DECOMP}{ZWSP}Lens{LANG_TAG_JA}", note="<p>decomposed accents on purpose</p>", header=False)
    noor = account(109384719283746816, "noor", f"{ALM}نور {PRIDE}", domain="photos.example.net",
                   note=f"<p>{AR_HARBOUR}</p>", created="2022-11-09", emojis=[E_rfog])
    zed = account(111029384756102144, "zed", f"{ZALGO_C}old fr{ZALGO_WORD} {SCOTLAND}", domain="snow.example.net", created="2023-09-01", avatar=False, header=False)
    tamar = account(112003948576321536, "tamar", f"{HE_HUT} {SMILE_TEXT} {SMILE_EMOJI}", domain="hills.example.net",
                    created="2024-03-05", locked=True, last=None, header=False)
    dara = account(113200000001234944, "dara", f"Dara {FA_ZWNJ}", domain="pixels.example.com", created="2024-10-01",
                   note="<p>photo blog</p>", header=False)
    relay = account(111777000000000000, "ferrynews", "Ferry Notices", domain="news.example.net", bot=True, group=True,
                    created="2023-12-24", avatar=False, header=False)

    web = {"name": "Web", "website": None}
    out = []

    # 1 local, 1 image with alt, long link with invisible+ellipsis spans, short link, custom emoji, card
    ts = "2025-05-10T19:42:07.118Z"
    out.append(status(ts, mika,
        f"<p>{JA_HARBOUR} — harbour at dusk, the ferry lights coming on :lantern:</p>"
        f"<p>Route notes: {link('https://trails.example.net/huts/north-ridge/winter-route-notes-2025')}<br />"
        f"Map: {link('https://www.maps.example.org/p/42')}</p><p>{tag_local('harbour')} {tag_local('dusk')}</p>",
        media=[image(114484310876242071, 4032, 3024, "Harbour at dusk: three fishing boats moored under a pink sky, lamps reflected in still water.", focus=(0.0, -0.2))],
        tags=["harbour", "dusk"], emojis=[E_lantern], app=web, replies=2, boosts=5, faves=19, favourited=True,
        lang="ja"))

    # 2 remote, 4 images: alt null / empty / long; one null blurhash; one meta null + media_proxy (not yet cached)
    ts = "2025-05-10T18:05:51.000Z"
    long_alt = ("A mountain hut seen from the trail below. Stone walls, a green tin roof with two chimneys, "
                "one of them smoking. Snow lies in the gullies on either side. In front of the hut a wooden bench, "
                "a pair of red boots drying on it, and a hand-painted sign giving the altitude as 2,310 m. "
                "Behind the hut the ridge climbs to the left into cloud; a faint zig-zag path is visible on the scree. "
                "The light is flat and grey, late afternoon. No people are in the picture. "
                f"Sign text, as written: \"{JA_HUT} / Hütte / {HE_HUT}\". ")
    m4 = [image(114483900000000001, 3000, 2000, None, remote_url="https://photos.example.net/system/media_attachments/files/114/483/899/001/original/a1.jpg"),
          image(114483900000000002, 2000, 3000, "", blurhash=None, remote_url="https://photos.example.net/system/media_attachments/files/114/483/899/002/original/a2.jpg"),
          image(114483900000000003, 3000, 3000, long_alt.strip(), remote_url="https://photos.example.net/system/media_attachments/files/114/483/899/003/original/a3.jpg"),
          {"id": "114483900000000004", "type": "image",
           "url": f"https://{HOST}/media_proxy/114483900000000004/original",
           "preview_url": f"https://{HOST}/media_proxy/114483900000000004/small",
           "remote_url": "https://photos.example.net/system/media_attachments/files/114/483/899/004/original/a4.jpg",
           "preview_remote_url": None, "text_url": None, "meta": None,
           "description": f"Window of the hut, {AR_HARBOUR} written in frost — alt text mixing scripts.",
           "blurhash": PALETTE_U["snow"]}]
    out.append(status(ts, noor,
        f"<p>{ALM}{AR_HARBOUR} … then two days walking up to a mountain hut. :fogbank:</p>"
        f"<p>{tag_remote('photos.example.net', 'hut')} {tag_remote('photos.example.net', 'fjord')}</p>",
        media=m4, tags=["hut", "fjord"], emojis=[E_rfog], lang="ar", boosts=12, faves=40, bookmarked=True))

    # 3 sensitive without spoiler (local), 1 image
    ts = "2025-05-10T17:30:00.004Z"
    out.append(status(ts, ellis, "<p>Butchers&#39; market stall at the port, before opening. Marked sensitive, no warning text.</p>",
        media=[image(114483700000000010, 1600, 1200, "Fish laid out on ice at a market stall.")], sensitive=True, faves=3))

    # 4 content-warned + sensitive, 2 images
    ts = "2025-05-10T16:12:45.900Z"
    out.append(status(ts, zed,
        f"<p>The scree descent went badly for my knee. {tag_remote('snow.example.net', 'hiking')}</p>",
        media=[image(114483500000000021, 2048, 1536, "A scraped, bleeding knee next to hiking poles."),
               image(114483500000000022, 1536, 2048, "First-aid kit open on a rock.")],
        sensitive=True, spoiler=f"injury, blood (mild) — {ZALGO_C}", tags=["hiking"], lang=None))

    # 5 filtered WARN (keyword)
    ts = "2025-05-10T15:00:10.000Z"
    sid5 = mastodon_id(ts)
    out.append(status(ts, tamar, f"<p>{HE_HUT}: fog again, fog all day. Nothing but fog.</p>",
        media=[image(114483300000000031, 1920, 1080, "Fog over a valley; a single fence post visible.")], lang="he", sid=sid5,
        filtered=[fr(201, "Fog fatigue", "warn", ("home", "public"), kw=["fog"], st=None, expires="2025-06-01T00:00:00.000Z")]))

    # 6 filtered HIDE (status-based filter) — client must drop it
    ts = "2025-05-10T14:22:33.000Z"
    sid6 = mastodon_id(ts)
    out.append(status(ts, relay, "<p>Ferry timetable change for the summer season.</p>",
        media=[image(114483100000000041, 1200, 1600, "Printed ferry timetable pinned to a notice board.")], sid=sid6,
        filtered=[fr(202, "No ferry talk", "hide", ("home", "notifications", "public", "thread", "account"), kw=None, st=[sid6])]))

    # 7 filtered BLUR (Mastodon 4.4+, API v5) and also a WARN match on same status
    ts = "2025-05-10T13:45:00.250Z"
    out.append(status(ts, cafe, f"<p>Tasting menu at the mountain hut: eleven courses of mushroom. {ALL_HARD}</p>",
        media=[image(114482900000000051, 3024, 4032, f"Plate of grilled mushrooms. Menu card reads: {ALL_HARD}"),
               image(114482900000000052, 4032, 3024, "Mushroom soup in an enamel mug.")],
        filtered=[fr(203, "Mushroom photos", "blur", ("home",), kw=["mushroom"]),
                  fr(204, "Food pics", "warn", ("home", "public"), kw=["tasting menu"])]))

    # 8 BOOST of a sensitive (CW) status; booster is local (uri == url == .../activity)
    ts_in = "2025-05-10T12:00:00.000Z"
    inner = status(ts_in, dara, "<p>Night swim in the lake below the hut.</p>",
        media=[image(114482600000000061, 2400, 1600, "Silhouette of a swimmer at night, moon on the water.",
                     remote_url="https://pixels.example.com/storage/m/_v2/7091/ab12cd/nightswim.jpg")],
        sensitive=True, spoiler="nudity (back view)", lang="fa", faves=8, boosts=2)
    ts = "2025-05-10T12:40:11.000Z"
    out.append(status(ts, ellis, "", reblog=inner, lang=None))

    # 9 BOOST of a 4-picture status; booster is remote -> outer url null
    ts_in = "2025-05-09T21:10:00.000Z"
    inner4 = status(ts_in, mika, f"<p>Four frames from the ferry deck. {tag_local('ferry')}</p>",
        media=[image(114479200000000071 + i, 4000, 3000, d) for i, d in enumerate(
            ["Wake behind the ferry.", "Gulls following the stern.", None, f"Passenger waving {WAVE_MED}."])],
        tags=["ferry"], faves=31, boosts=9, app=web)
    ts = "2025-05-10T11:02:00.000Z"
    out.append(status(ts, zed, "", reblog=inner4, lang=None))

    # 10 gifv (local)
    ts = "2025-05-10T10:20:00.000Z"
    gid = 114482000000000081
    base = f"https://{FILES}/media_attachments/files/{id_path(gid)}"
    hx = hexname()
    out.append(status(ts, cafe, "<p>Steam from the hut&#39;s kettle, looping.</p>",
        media=[{"id": str(gid), "type": "gifv", "url": f"{base}/original/{hx}.mp4", "preview_url": f"{base}/small/{hx}.png",
                "remote_url": None, "preview_remote_url": None, "text_url": None,
                "meta": {"length": "0:00:02.40", "duration": 2.4, "fps": 25, "size": "480x480", "width": 480, "height": 480,
                         "aspect": 1.0, "original": {"width": 480, "height": 480, "frame_rate": "25/1", "duration": 2.4, "bitrate": 402112},
                         "small": {"width": 400, "height": 400, "size": "400x400", "aspect": 1.0}},
                "description": "Steam curling from a kettle spout.", "blurhash": PALETTE_U["steam"]}]))

    # 11 video-only (remote, cached)
    ts = "2025-05-10T09:15:30.000Z"
    vid = 114481700000000091
    base = f"https://{FILES}/cache/media_attachments/files/{id_path(vid)}"
    hx = hexname()
    out.append(status(ts, noor, f"<p>Ferry leaving the {ALM}harbour, 40 seconds.</p>",
        media=[{"id": str(vid), "type": "video", "url": f"{base}/original/{hx}.mp4", "preview_url": f"{base}/small/{hx}.png",
                "remote_url": "https://photos.example.net/system/media_attachments/files/114/481/699/091/original/v.mp4",
                "preview_remote_url": "https://photos.example.net/system/media_attachments/files/114/481/699/091/small/v.png",
                "text_url": None,
                "meta": {"length": "0:00:40.04", "duration": 40.04, "fps": 30, "size": "1920x1080", "width": 1920, "height": 1080,
                         "aspect": 1.7777777777777777, "audio_encode": "aac (LC) (mp4a / 0x6134706D)", "audio_bitrate": "48000 Hz",
                         "audio_channels": "stereo",
                         "original": {"width": 1920, "height": 1080, "frame_rate": "30/1", "duration": 40.04, "bitrate": 4210334},
                         "small": {"width": 640, "height": 360, "size": "640x360", "aspect": 1.7777777777777777}},
                "description": None, "blurhash": PALETTE_U["sea"]}], lang="en"))

    # 12 audio-only (local): preview_url null, blurhash null
    ts = "2025-05-10T08:01:02.000Z"
    aid = 114481400000000101
    out.append(status(ts, me, "<p>Field recording: rain on the hut roof.</p>",
        media=[{"id": str(aid), "type": "audio", "url": media_url(aid, "original", "mp3"), "preview_url": None,
                "remote_url": None, "preview_remote_url": None, "text_url": None,
                "meta": {"length": "0:03:12.50", "duration": 192.5, "audio_encode": "mp3", "audio_bitrate": "44100 Hz",
                         "audio_channels": "stereo", "original": {"duration": 192.502, "bitrate": 128000}},
                "description": "Steady rain on a tin roof, occasional thunder.", "blurhash": None}],
        app={"name": "Ferry Client", "website": "https://client.example.com"}, own=True))

    # 13 unknown-only (remote media Mastodon could not fetch): media_proxy urls, meta null, blurhash null
    ts = "2025-05-09T22:00:00.000Z"
    uid = 114479400000000111
    out.append(status(ts, tamar, "<p>Raw file from the camera, in case anyone wants to edit it.</p>",
        media=[{"id": str(uid), "type": "unknown", "url": f"https://{HOST}/media_proxy/{uid}/original",
                "preview_url": f"https://{HOST}/media_proxy/{uid}/small",
                "remote_url": "https://hills.example.net/media/raw/IMG_0042.dng", "preview_remote_url": None,
                "text_url": None, "meta": None, "description": "Unprocessed camera raw of the valley.", "blurhash": None}],
        lang="en"))

    # 14 image + video mix (remote; Mastodon's own composer does not allow mixing)
    ts = "2025-05-09T20:30:00.000Z"
    mid = 114478900000000121
    base = f"https://{FILES}/cache/media_attachments/files/{id_path(mid + 1)}"
    hx = hexname()
    out.append(status(ts, dara, f"<p>Hut at sunrise, photo and a short clip. {FA_ZWNJ}</p>",
        media=[image(mid, 2048, 1365, "Hut at sunrise, orange light on the roof.", remote_url="https://pixels.example.com/storage/m/_v2/7091/cd34ef/sunrise.jpg"),
               {"id": str(mid + 1), "type": "video", "url": f"{base}/original/{hx}.mp4", "preview_url": f"{base}/small/{hx}.png",
                "remote_url": "https://pixels.example.com/storage/m/_v2/7091/cd34ef/sunrise.mp4", "preview_remote_url": None,
                "text_url": None,
                "meta": {"length": "0:00:08.00", "duration": 8.0, "fps": 30, "size": "1080x1920", "width": 1080, "height": 1920,
                         "aspect": 0.5625, "original": {"width": 1080, "height": 1920, "frame_rate": "30/1", "duration": 8.0, "bitrate": 2900000},
                         "small": {"width": 270, "height": 480, "size": "270x480", "aspect": 0.5625}},
                "description": None, "blurhash": PALETTE_U["green"]}], lang="fa"))

    # 15 text only: mentions, Arabic/Hebrew, reply, edited
    ts = "2025-05-09T18:00:00.000Z"
    out.append(status(ts, me,
        f"<p>{mention_local('mika')} thank you! {AR_HARBOUR} / {HE_HUT} — "
        f"{SMILE_TEXT} vs {SMILE_EMOJI}, {KEYCAP1}, {PRIDE}, {FAMILY}</p><p>line two<br />line three</p>",
        mentions=[{"id": mika["id"], "username": "mika", "url": mika["url"], "acct": "mika"}],
        in_reply=("114479000000000001", mika["id"]), edited_at="2025-05-09T18:04:12.000Z", visibility="unlisted",
        app=web, own=True))

    # 16 local video still being processed: url null (documented: "Url may be null if the file is still being processed")
    ts = "2025-05-09T17:00:00.000Z"
    pid = 114477700000000141
    out.append(status(ts, ellis, "<p>Uploading the long ferry video, give it a minute.</p>",
        media=[{"id": str(pid), "type": "video", "url": None, "preview_url": media_url(pid, "small", "png"),
                "remote_url": None, "preview_remote_url": None, "text_url": None, "meta": None,
                "description": None, "blurhash": None}]))
    return out

def _realistic(out):
    """Replace hand-typed round snowflakes (…00000…) by ones with random low 16 bits, keeping URLs consistent."""
    import json, re, random
    rnd = random.Random(77)
    text = json.dumps(out, ensure_ascii=False)
    ids = sorted(set(n for n in re.findall(r"\b\d{18}\b", text) if re.search(r"0000|9999", n[6:])))
    for old in ids:
        new = str((((int(old) >> 16) - rnd.randint(1_000, 3_600_000)) << 16) | rnd.getrandbits(16))
        text = text.replace(old, new).replace(id_path(int(old)), id_path(int(new)))
    return json.loads(text)

_build = build
def build():
    return _realistic(_build())
