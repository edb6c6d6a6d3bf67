"""Pixelfed (2024-era ApiV1Controller, EXP_EMC=true default) timelines, plus the native `_pe=1` entity shape."""
from ids import pixelfed_id, hexname, _r
from texts import *
from bh import PALETTE, PALETTE_U

H = "pix.example.com"

def account_native(user, display, domain=None, note="", created="2023-02-11T10:20:30.000000Z", avatar=None, admin=False,
                   website=None, pronouns=None, location=None):
    pid = pixelfed_id(created.replace("000Z", "Z").replace(".000000Z", ".000Z"))
    local = domain is None
    return {"id": pid, "username": user, "acct": user if local else f"{user}@{domain}", "display_name": display,
            "discoverable": True, "locked": False, "followers_count": 210, "following_count": 95, "statuses_count": 64,
            "note": note, "note_text": None if not note else note.replace("<br />", "\n"),
            "url": f"https://{H}/{user}" if local else f"https://{domain}/@{user}",
            "avatar": avatar or f"https://{H}/storage/avatars/default.jpg", "website": website, "local": local,
            "is_admin": admin, "created_at": created, "header_bg": None,
            "last_fetched_at": None if local else "2025-05-09T23:11:02.000000Z", "pronouns": pronouns or [], "location": location}

def emc(acc):
    """AccountService::getMastodon with EXP_EMC: drop Pixelfed-only keys, append Mastodon-ish ones."""
    a = {k: v for k, v in acc.items() if k not in ("header_bg", "is_admin", "last_fetched_at", "local", "location",
                                                    "note_text", "pronouns", "website")}
    a.update({"avatar_static": a["avatar"], "bot": False, "emojis": [], "fields": [],
              "header": f"https://{H}/storage/headers/missing.png", "header_static": f"https://{H}/storage/headers/missing.png",
              "last_status_at": None})
    return a

def media_native(mid, mime, url, preview, desc, w=None, h=None, blurhash=None, remote=False, filter_name=None, license=None):
    t = {"image": "image", "video": "video", "audio": "audio"}.get(mime.split("/")[0], "document")
    m = {"id": str(mid), "type": t, "url": url, "remote_url": None, "preview_url": preview,
         "optimized_url": None if remote else url.replace(".jpg", "_opt.jpg"), "text_url": None, "meta": None,
         "description": desc, "license": license, "is_nsfw": False, "orientation": None if remote else ("landscape" if (w or 1) >= (h or 1) else "portrait"),
         "filter_name": filter_name, "filter_class": None, "mime": mime,
         "blurhash": blurhash or PALETTE_U["place"]}  # Pixelfed substitutes a fixed placeholder when null (ours is invented)
    if w and h:
        m["meta"] = {"focus": {"x": 0, "y": 0}, "original": {"width": w, "height": h, "size": f"{w}x{h}", "aspect": w / h}}
    return m

def media_emc(m):
    """MediaService::getMastodon: drop Pixelfed keys, type := first half of mime."""
    out = {k: v for k, v in m.items() if k not in ("optimized_url", "license", "is_nsfw", "orientation", "filter_name",
                                                  "filter_class", "mime", "hls_manifest")}
    out["type"] = m["mime"].split("/")[0].lower() if m["mime"] else "unknown"
    return out

def local_media(pid, w=None, h=None, desc=None, mime="image/jpeg", ext="jpg", blurhash=None, thumb_ext=None, filter_name=None):
    mid = _r.randint(3_000_000, 3_999_999)
    base = f"https://{H}/storage/m/_v2/{pid}/{hexname(8)}-{hexname(6)}/{hexname(12)}/{hexname(40)}"
    return media_native(mid, mime, f"{base}.{ext}", f"{base}_thumb.{thumb_ext or ext}", desc, w, h, blurhash, filter_name=filter_name)

def tag(name, rtl=False):
    cls = "u-url hashtag rtl" if rtl else "u-url hashtag"
    return f'<a href="https://{H}/discover/tags/{name}?src=hash" title="#{name}" class="{cls}" rel="external nofollow noopener">#{name}</a>'

def mention(acc):
    return f'<a class="u-url mention" href="{acc["url"]}" rel="external nofollow noopener" target="_blank">@{acc["username"]}</a>'

def native_status(ts, acc, caption, rendered, media, pf_type, sensitive=False, cw=None, tags=(), mentions=None, emojis=None,
                  reply=None, faves=0, boosts=0, replies=0, reblog=None, remote_uri=None, place=None):
    sid = pixelfed_id(ts)
    url = remote_uri or f"https://{H}/p/{acc['username']}/{sid}"
    return {"_v": 1, "id": sid, "shortcode": hexname(11), "uri": url, "url": url,
            "in_reply_to_id": None, "in_reply_to_account_id": reply, "reblog": reblog, "content": rendered,
            "content_text": caption, "created_at": ts, "emojis": emojis or [], "reblogs_count": boosts,
            "favourites_count": faves, "reblogged": None, "favourited": None, "muted": None, "sensitive": sensitive,
            "spoiler_text": cw or "", "visibility": "public", "application": {"name": "web", "website": None}, "language": None,
            "mentions": mentions or [], "pf_type": pf_type, "reply_count": replies, "comments_disabled": False, "thread": False,
            "replies": [], "parent": [], "place": place, "local": remote_uri is None, "taggedPeople": [],
            "label": {"covid": False}, "liked_by": {"username": None, "others": False},
            "media_attachments": media, "account": acc,
            "tags": [{"name": t, "url": f"https://{H}/discover/tags/{t}"} for t in tags], "poll": None, "edited_at": None}

DROP = ("_v", "comments_disabled", "content_text", "gid", "label", "liked_by", "local", "parent", "pf_type", "place",
        "replies", "reply_count", "shortcode", "taggedPeople", "thread", "pinned")

def to_emc(s, favourited=False, bookmarked=False):
    """StatusService::getMastodon (EMC) + timeline decoration."""
    out = {k: v for k, v in s.items() if k not in DROP and k not in ("media_attachments", "account")}
    out["account"] = emc(s["account"])
    out["replies_count"] = s["reply_count"]
    out["media_attachments"] = [media_emc(m) for m in s["media_attachments"]]
    out["muted"] = False
    out["reblogged"] = False
    out["favourited"] = favourited
    out["bookmarked"] = bookmarked
    return out

def accounts():
    return {
        "lina": account_native("lina", f"Lina {PRIDE} {JP_FLAG}", note="Travel photos.<br />Mostly huts.",
                               website="https://lina.example.org", pronouns=["she", "her"], location="Harbour town"),
        "omar": account_native("omar", f"{ALM}عمر {WAVE_MED}", created="2023-06-01T08:00:00.000000Z"),
        "shira": account_native("shira", f"{HE_HUT} {SMILE_EMOJI}", created="2024-01-20T12:00:00.000000Z"),
        "zal": account_native("zal", f"{ZALGO_C}{ZALGO_WORD} {FAMILY} {KEYCAP1}", created="2024-09-09T09:09:09.000000Z"),
        "kai": account_native("kai", f"Kai {LANG_TAG_JA}{SCOTLAND} caf{E_DECOMP}", created="2022-12-01T00:00:00.000000Z"),
        "noor": account_native("noor", f"{ALM}نور", domain="photos.example.net", created="2024-02-02T00:00:00.000000Z",
                               avatar="https://photos.example.net/system/accounts/avatars/109/384/719/283/746/816/original/a.png"),
        "sven": account_native("sven", "", domain="snow.example.net", created="2024-03-03T00:00:00.000000Z"),
    }

def build_public():
    A = accounts()
    out = []
    def L(ts, who, caption, rendered, media, pf_type, **kw):
        fav = kw.pop("fav", False)
        bm = kw.pop("bm", False)
        out.append(to_emc(native_status(ts, A[who], caption, rendered, media, pf_type, **kw), fav, bm))

    L("2025-05-10T19:40:00.000Z", "lina", "harbour at dusk #harbour", f"harbour at dusk {tag('harbour')}",
      [local_media(A["lina"]["id"], 4032, 3024, "Boats at dusk in a small harbour.", blurhash=PALETTE["dusk"])],
      "photo", tags=["harbour"], faves=14, fav=True)
    L("2025-05-10T19:00:00.000Z", "kai", "four from the hut #mountainhut", f"four from the hut {tag('mountainhut')}",
      [local_media(A["kai"]["id"], 3000, 2000, "Hut from the path.", blurhash=PALETTE["hut"], filter_name="Clarendon"),
       local_media(A["kai"]["id"], 2000, 3000, None),
       local_media(A["kai"]["id"], None, None, "", mime="image/png", ext="png"),
       local_media(A["kai"]["id"], 3000, 3000, f"Bunks inside, {JA_HUT}.")],
      "photo:album", tags=["mountainhut"], bm=True)
    L("2025-05-10T18:20:00.000Z", "omar", "hot spring", "hot spring",
      [local_media(A["omar"]["id"], 1600, 1200, "Steaming pool among rocks."),
       local_media(A["omar"]["id"], 1200, 1600, "Towels on a bench.")], "photo:album", sensitive=True)
    L("2025-05-10T17:45:00.000Z", "shira", "found on the hut wall", "found on the hut wall",
      [local_media(A["shira"]["id"], 2400, 1800, "Large spider on a wooden wall.")], "photo", sensitive=True,
      cw="spider (close-up)")
    L("2025-05-10T16:30:00.000Z", "lina", "ferry ramp, 15s", "ferry ramp, 15s",
      [local_media(A["lina"]["id"], None, None, "Ferry ramp lowering.", mime="video/mp4", ext="mp4", thumb_ext="jpeg")], "video")
    rm = media_native(3100001, "image/jpeg", "https://photos.example.net/system/media_attachments/files/114/480/000/001/original/fj.jpg",
                      "https://photos.example.net/system/media_attachments/files/114/480/000/001/original/fj.jpg",
                      "Fjord, remote image (preview_url == url).", 3000, 2000, PALETTE_U["sea"], remote=True)
    out.append(to_emc(native_status("2025-05-10T15:00:00.000Z", A["noor"], None,
        '<p>Fjord from the ferry <a href="https://photos.example.net/tags/fjord" class="mention hashtag" rel="tag">#<span>fjord</span></a></p>',
        [rm], "photo", tags=["fjord"], remote_uri="https://photos.example.net/users/noor/statuses/114480000000000777")))
    wm = media_native(3100002, "image/webp", "https://snow.example.net/media/ridge.webp", f"https://{H}/storage/no-preview.png",
                      None, blurhash=PALETTE["snow"], remote=True)
    out.append(to_emc(native_status("2025-05-10T14:00:00.000Z", A["sven"], None, "<p>ridge, webp original</p>", [wm], "photo",
        remote_uri="https://snow.example.net/users/sven/statuses/114479000000000123")))
    L("2025-05-10T13:00:00.000Z", "omar", f"{AR_HARBOUR} #ميناء", f"{ALM}{AR_HARBOUR} {tag('ميناء', rtl=True)}",
      [local_media(A["omar"]["id"], 2048, 1536, f"{AR_HARBOUR}.")], "photo", tags=["ميناء"])
    L("2025-05-10T12:00:00.000Z", "zal", "photo and clip from the lake", "photo and clip from the lake",
      [local_media(A["zal"]["id"], 3000, 2000, "Lake, still."),
       local_media(A["zal"]["id"], 1920, 1080, "Lake, ripples (video).", mime="video/mp4", ext="mp4", thumb_ext="jpeg")],
      "photo:video:album")
    L("2025-05-10T11:00:00.000Z", "kai", f"thanks @lina :hut: {ALL_HARD}",
      f"thanks {mention(A['lina'])} :hut: {ALL_HARD}",
      [local_media(A["kai"]["id"], 1080, 1350, f"Selfie with {WAVE_MED} wave. {ALL_HARD}")], "photo",
      mentions=[A["lina"]], emojis=[{"shortcode": "hut", "url": f"https://{H}/storage/emoji/hut.png",
                                     "static_url": f"https://{H}/storage/emoji/hut.png", "visible_in_picker": True}])
    return out

def build_home():
    """GET /api/v1/timelines/home?include_reblogs=true (EMC). The nested reblog keeps the *native* shape."""
    A = accounts()
    inner = native_status("2025-05-09T18:00:00.000Z", A["kai"], "cliff path #hiking", f"cliff path {tag('hiking')}",
                          [local_media(A["kai"]["id"], 3000, 2000, "Narrow cliff path.")], "photo", sensitive=True,
                          cw="heights", tags=["hiking"], faves=9, boosts=1)
    inner["favourited"] = True
    inner["reblogged"] = True
    share = native_status("2025-05-10T08:00:00.000Z", A["lina"], None, None, [], "share", reply=A["kai"]["id"], reblog=inner)
    out = [to_emc(share, bookmarked=False)]
    out[0]["reblogged"] = False
    out.append(to_emc(native_status("2025-05-10T07:00:00.000Z", A["shira"], "morning", "morning",
                                    [local_media(A["shira"]["id"], 1600, 1200, None)], "photo")))
    return out

def build_native():
    """GET /api/v1/timelines/public?_pe=1 — Pixelfed's own entity (also what EXP_EMC=false servers return)."""
    A = accounts()
    s1 = native_status("2025-05-10T19:40:00.000Z", A["lina"], "harbour at dusk #harbour", f"harbour at dusk {tag('harbour')}",
                       [local_media(A["lina"]["id"], 4032, 3024, "Boats at dusk.", filter_name="Juno",
                                    ) | {"license": {"id": 5, "title": "CC BY-SA", "url": "https://licenses.example.org/by-sa/4.0/"}}],
                       "photo", tags=["harbour"], place={"id": 7, "slug": "harbour-town", "name": "Harbour Town", "country": "Example"})
    s1["favourited"] = True
    s1["reblogged"] = False
    s1["bookmarked"] = False
    s2 = native_status("2025-05-10T16:30:00.000Z", A["zal"], "ferry ramp, 15s", "ferry ramp, 15s",
                       [local_media(A["zal"]["id"], None, None, None, mime="video/mp4", ext="mp4", thumb_ext="jpeg")], "video")
    s2["favourited"] = False
    s2["reblogged"] = False
    s2["bookmarked"] = False
    return [s1, s2]
