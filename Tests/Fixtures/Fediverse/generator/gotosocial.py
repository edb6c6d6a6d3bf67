"""GoToSocial (0.19/0.20-era API model) public timeline and home timeline."""
from ids import ulid, hexname, mastodon_id
from texts import *
from bh import PALETTE, PALETTE_U

H = "gts.example.com"
POLICY = {"can_favourite": {"automatic_approval": ["public", "me"], "manual_approval": [], "always": ["public", "me"], "with_approval": []},
          "can_reply": {"automatic_approval": ["public", "me"], "manual_approval": [], "always": ["public", "me"], "with_approval": []},
          "can_reblog": {"automatic_approval": ["public", "me"], "manual_approval": [], "always": ["public", "me"], "with_approval": []}}

def account(user, display, domain=None, note="", emojis=None, avatar=True, created="2024-02-03T10:11:12.000Z", last="2025-05-10",
            roles=None, bot=False, locked=False, fields=None):
    aid = ulid(created)
    local = domain is None
    a = {"id": aid, "username": user, "acct": user if local else f"{user}@{domain}", "display_name": display, "locked": locked,
         "discoverable": True, "bot": bot, "created_at": created, "note": note,
         "url": f"https://{H}/@{user}" if local else f"https://{domain}/@{user}"}
    if avatar:
        av = f"https://{H}/fileserver/{aid}/avatar/original/{ulid(created)}.png"
        a.update({"avatar": av, "avatar_static": f"https://{H}/fileserver/{aid}/avatar/small/{ulid(created)}.webp",
                  "avatar_description": "Round portrait, backlit."})
    else:
        a.update({"avatar": "", "avatar_static": ""})
    a.update({"header": f"https://{H}/assets/default_header.webp", "header_static": f"https://{H}/assets/default_header.webp",
              "header_description": "Flat gray background (default header).",
              "followers_count": 12, "following_count": 30, "statuses_count": 88, "last_status_at": last,
              "emojis": emojis or [], "fields": fields or []})
    if local:
        a["enable_rss"] = True
    if roles:
        a["roles"] = roles
    a["group"] = False
    return a

def emoji(code, created="2024-01-01T00:00:00.000Z"):
    inst = ulid("2024-01-01T00:00:00.000Z")  # instance account id (owner of local emoji)
    e = ulid(created)
    return {"shortcode": code, "url": f"https://{H}/fileserver/{inst}/emoji/original/{e}.png",
            "static_url": f"https://{H}/fileserver/{inst}/emoji/static/{e}.png", "visible_in_picker": True, "category": "travel"}

def media(owner, ts, typ, ext, prev_ext, w=None, h=None, desc=None, blurhash=None, remote_url=None, video=None, small=True):
    mid = ulid(ts)
    url = f"https://{H}/fileserver/{owner}/attachment/original/{mid}.{ext}"
    m = {"id": mid, "type": typ, "url": url, "text_url": url}
    orig = {}
    if w:
        orig.update({"width": w, "height": h})
    if video:
        orig.update(video)
    if w:
        orig.update({"size": f"{w}x{h}", "aspect": round(w / h, 7)})
    meta = {"original": orig}
    if small and w:
        sw = 512 if w >= h else round(512 * w / h)
        sh = round(sw * h / w)
        m["preview_url"] = f"https://{H}/fileserver/{owner}/attachment/small/{mid}.{prev_ext}"
        meta["small"] = {"width": sw, "height": sh, "size": f"{sw}x{sh}", "aspect": round(sw / sh, 7)}
    else:
        m["preview_url"] = None
        meta["small"] = {}
    meta["focus"] = {"x": 0, "y": 0}
    m.update({"remote_url": remote_url, "preview_remote_url": None, "meta": meta, "description": desc, "blurhash": blurhash})
    return m

def p_tag(name):
    return f'<a href="https://{H}/tags/{name}" class="mention hashtag" rel="tag nofollow noreferrer noopener" target="_blank">#<span>{name}</span></a>'

def p_link(url):
    return f'<a href="{url}" rel="nofollow noreferrer noopener" target="_blank">{url}</a>'

def status(ts, acc, content, media_list=None, sensitive=False, spoiler="", lang="en", tags=(), emojis=None, text=None,
           content_type="text/plain", app=None, filtered=None, reblog=None, edited=None, local_only=False, faves=0, boosts=0,
           replies=0, favourited=False, mentions=None, sid=None, reblogged=False):
    sid = sid or ulid(ts)
    local = "@" not in acc["acct"]
    if local:
        uri, url = f"https://{H}/users/{acc['username']}/statuses/{sid}", f"https://{H}/@{acc['username']}/statuses/{sid}"
    else:
        dom = acc["acct"].split("@")[1]
        rid = mastodon_id(ts)
        uri, url = f"https://{dom}/users/{acc['username']}/statuses/{rid}", f"https://{dom}/@{acc['username']}/{rid}"
    s = {"id": sid, "created_at": ts, "edited_at": edited, "in_reply_to_id": None, "in_reply_to_account_id": None,
         "sensitive": sensitive, "spoiler_text": spoiler, "visibility": "public"}
    if local_only:
        s["local_only"] = True
    s.update({"language": lang, "uri": uri, "url": url, "replies_count": replies, "reblogs_count": boosts,
              "favourites_count": faves, "favourited": favourited, "reblogged": reblogged, "muted": False, "bookmarked": False,
              "pinned": False, "content": content, "reblog": reblog})
    if app:
        s["application"] = app
    s.update({"account": acc, "media_attachments": media_list or [], "mentions": mentions or [],
              "tags": [{"name": t, "url": f"https://{H}/tags/{t}"} for t in tags], "emojis": emojis or [], "card": None,
              "poll": None})
    if local and text is not None:
        s["text"] = text
        s["content_type"] = content_type
    if filtered:
        s["filtered"] = filtered
    s["interaction_policy"] = POLICY
    return s

def placeholder_note(items):
    n = len(items)
    word = "attachments in this status were not downloaded. Treat the following external links with care:" if n > 1 else \
           "attachment in this status was not downloaded. Treat the following external link with care:"
    lis = "".join(f'<li><a href="{u}" rel="nofollow noreferrer noopener" target="_blank">{u.rsplit("/", 1)[1]}</a>'
                  + (f" [{d}]" if d else "") + "</li>" for u, d in items)
    return (f'<div class="gts-system-message gts-placeholder-attachments"><hr><p><i lang="en">\u2139\ufe0f Note from {H}: {n} {word}'
            f'</i></p><ul>{lis}</ul></div>')

def build_public():
    web = {"name": "Web", "website": None}
    E1, E2 = emoji("lighthouse", "2024-03-01T00:00:00.000Z"), emoji("hut", "2024-03-02T00:00:00.000Z")
    yael = account("yael", f"{HE_HUT} {ALM}יעל", note=f"<p>{HE_HUT}</p>", roles=[{"id": "admin", "name": "admin", "color": ""}])
    sora = account("sora", f"{JA_HARBOUR} :lighthouse:", emojis=[E1], created="2024-05-05T05:05:05.000Z")
    noname = account("quietframes", "", avatar=False, created="2025-01-02T03:04:05.000Z", last=None)
    fam = account("famtrip", f"Trip {FAMILY} {JP_FLAG} {WAVE_MED}", created="2024-07-07T07:07:07.000Z")
    masto = account("noor", f"{ALM}نور {PRIDE}", domain="photos.example.net", created="2022-11-09T00:00:00.000Z")
    zed = account("zed", f"{ZALGO_C} {SCOTLAND} {LANG_TAG_JA}", domain="snow.example.net", avatar=False, created="2023-09-01T00:00:00.000Z")
    out = []

    ts = "2025-05-10T20:00:00.000Z"
    out.append(status(ts, sora, f"<p>{JA_HARBOUR} :lighthouse: {p_tag('harbour')}</p>",
        [media(sora["id"], ts, "image", "jpeg", "jpeg", 4032, 3024, "Lighthouse at the harbour mouth at dusk.", PALETTE["dusk"])],
        tags=["harbour"], emojis=[E1], text=f"{JA_HARBOUR} :lighthouse: #harbour", lang="ja", app=web, faves=6))

    ts = "2025-05-10T19:30:00.000Z"
    out.append(status(ts, fam, "<p>Two from the hut terrace, one without alt text.</p>",
        [media(fam["id"], ts, "image", "png", "webp", 1600, 1200, "Terrace table with maps.", PALETTE["market"]),
         media(fam["id"], "2025-05-10T19:30:00.001Z", "image", "jpeg", "jpeg", 1200, 1600, None, PALETTE["hut"])],
        text="Two from the hut terrace, one without alt text.", content_type="text/markdown"))

    ts = "2025-05-10T19:00:00.000Z"
    four = [media(masto["id"], f"2025-05-10T19:00:00.00{i}Z", "image", "jpeg", "jpeg", 3000, 2000, d,
                  PALETTE_U["sea"] if i != 1 else None,
                  remote_url=f"https://photos.example.net/system/media_attachments/files/114/48{i}/000/001/original/{hexname()}.jpg")
            for i, d in enumerate(["Fjord from above.", None, f"{AR_HARBOUR}", "Boat in a fjord."])]
    out.append(status(ts, masto, f'<p>{ALM}{AR_HARBOUR}, four frames. {p_link("https://photos.example.net/@noor/album/fjord-2025")}</p>',
        four, lang="ar", faves=11, boosts=2))

    ts = "2025-05-10T18:00:00.000Z"
    out.append(status(ts, yael, f"<p>{HE_HUT} — the descent.</p>",
        [media(yael["id"], ts, "image", "jpeg", "jpeg", 2400, 1600, "Steep icy path.", PALETTE["fog"])],
        sensitive=True, spoiler="heights, a fall (no injury shown)", lang="he", text=f"{HE_HUT} — the descent."))

    ts = "2025-05-10T17:00:00.000Z"
    out.append(status(ts, noname, "<p>Market at the port (animated GIF kept as image).</p>",
        [media(noname["id"], ts, "image", "gif", "jpeg", 480, 360, "Looping GIF of a fish market.", PALETTE["food"])],
        sensitive=True, text="Market at the port (animated GIF kept as image).", lang=None))

    ts = "2025-05-10T16:00:00.000Z"
    out.append(status(ts, sora, "<p>Snow sliding off the hut roof.</p>",
        [media(sora["id"], ts, "gifv", "mp4", "webp", 720, 720, "Snow sliding off a roof.", PALETTE["snow"],
               video={"frame_rate": "30/1", "duration": 4.2, "bitrate": 912334})],
        text="Snow sliding off the hut roof."))

    ts = "2025-05-10T15:00:00.000Z"
    out.append(status(ts, yael, "<p>Recording: cowbells below the hut.</p>",
        [media(yael["id"], ts, "audio", "mp3", None, desc=None, blurhash=None, small=False, video={"duration": 61.3, "bitrate": 192000})],
        text="Recording: cowbells below the hut.", lang="en"))

    ts = "2025-05-10T14:00:00.000Z"
    out.append(status(ts, zed, "<p>raw + heic versions for anyone who wants them</p>" + placeholder_note(
        [("https://snow.example.net/media/ridge.dng", "Camera raw of the ridge"), ("https://snow.example.net/media/ridge.heic", None)]),
        [], lang=None))

    ts = "2025-05-10T13:00:00.000Z"
    out.append(status(ts, masto, "<p>Photo and clip of the ferry ramp.</p>",
        [media(masto["id"], ts, "image", "jpeg", "jpeg", 2048, 1536, "Ferry ramp down.", PALETTE["market"],
               remote_url="https://photos.example.net/system/media_attachments/files/114/470/000/002/original/ramp.jpg"),
         media(masto["id"], "2025-05-10T13:00:00.001Z", "video", "mp4", "webp", 1920, 1080, None, PALETTE["sea"],
               remote_url="https://photos.example.net/system/media_attachments/files/114/470/000/003/original/ramp.mp4",
               video={"frame_rate": "30/1", "duration": 12.5, "bitrate": 3100000})], lang="en"))

    ts = "2025-05-10T12:00:00.000Z"
    out.append(status(ts, fam, f"<p>{KEYCAP1} hut, {SMILE_TEXT} {SMILE_EMOJI} :hut: {FA_ZWNJ} {E_DECOMP}t{E_DECOMP}{ZWSP}! {ALL_HARD}</p>",
        [media(fam["id"], ts, "image", "jpeg", "jpeg", 3000, 3000, f"A hut, {JA_HUT}. Sign: {ALL_HARD}", PALETTE["hut"])],
        emojis=[E2], text=f"{KEYCAP1} hut, {SMILE_TEXT} {SMILE_EMOJI} :hut: {FA_ZWNJ} {E_DECOMP}t{E_DECOMP}{ZWSP}!", local_only=True,
        edited="2025-05-10T12:05:00.000Z", lang=None))

    ts = "2025-05-10T11:00:00.000Z"
    out.append(status(ts, sora, "<p>Fog in the valley again.</p>",
        [media(sora["id"], ts, "image", "jpeg", "jpeg", 1920, 1080, "Fog in a valley.", PALETTE["fog"])],
        text="Fog in the valley again.",
        filtered=[{"filter": {"id": ulid("2025-04-01T00:00:00.000Z"), "title": "Fog fatigue", "context": ["home", "public"],
                              "expires_at": None, "filter_action": "warn",
                              "keywords": [{"id": ulid("2025-04-01T00:00:01.000Z"), "keyword": "fog", "whole_word": True}],
                              "statuses": []},
                   "keyword_matches": ["fog"], "status_matches": None}]))
    return out

def build_home():
    me = account("yael", f"{HE_HUT} {ALM}יעל")
    sora = account("sora", f"{JA_HARBOUR}", created="2024-05-05T05:05:05.000Z")
    ts_in = "2025-05-10T09:00:00.000Z"
    inner = status(ts_in, sora, "<p>Wet rocks at the shore.</p>",
        [media(sora["id"], ts_in, "image", "jpeg", "jpeg", 2000, 1500, "Wet rocks.", PALETTE["fog"])],
        sensitive=True, spoiler="", text="Wet rocks at the shore.", favourited=True, reblogged=True, faves=3, boosts=1,
        filtered=[{"filter": {"id": ulid("2025-04-02T00:00:00.000Z"), "title": "Shore pics", "context": ["home"],
                              "expires_at": "2025-07-01T00:00:00.000Z", "filter_action": "blur",
                              "keywords": [{"id": ulid("2025-04-02T00:00:01.000Z"), "keyword": "rocks", "whole_word": False}],
                              "statuses": []},
                   "keyword_matches": ["rocks"], "status_matches": None}])
    ts = "2025-05-10T10:00:00.000Z"
    bid = ulid(ts)
    outer = status(ts, me, "", [], reblog=inner, sid=bid, lang=None, favourited=True, reblogged=True,
                   filtered=inner["filtered"])
    outer["uri"] = f"https://{H}/users/yael/statuses/{bid}"
    outer["url"] = f"https://{H}/@yael/statuses/{bid}"
    return [outer, status("2025-05-10T09:30:00.000Z", me, "<p>Back at the hut.</p>", text="Back at the hut.")]
