"""Pleroma (2.6/2.7-era StatusView) public timeline, Pleroma home with boosts, Akkoma home."""
import zlib
from ids import flake_id, mastodon_id, b64ish, hexname, _r
from texts import *
from bh import PALETTE, PALETTE_U

def proxied(host, remote, fname, preview=False):
    return f"https://{host}/proxy/{'preview/' if preview else ''}{b64ish(27)}/{b64ish(40)}/{fname}"

def account(host, nick, display, remote_domain=None, note="", emojis=None, bot=False, locked=False, created="2023-02-14T09:31:12.000Z",
            last="2025-05-10", avatar=None, fields=None, actor_type="Person", akkoma=False):
    local = remote_domain is None
    fid = flake_id(created)
    acct = nick if local else f"{nick}@{remote_domain}"
    ap_id = f"https://{host}/users/{nick}" if local else f"https://{remote_domain}/users/{nick}"
    url = ap_id if local else f"https://{remote_domain}/@{nick}"
    av = avatar or (f"https://{host}/images/avi.png")
    a = {"id": fid, "username": nick, "acct": acct, "display_name": display, "locked": locked, "created_at": created,
         "followers_count": 42, "following_count": 17, "statuses_count": 230, "note": note, "url": url,
         "avatar": av, "avatar_static": av, "header": f"https://{host}/images/banner.png",
         "header_static": f"https://{host}/images/banner.png", "emojis": emojis or [], "fields": fields or [], "bot": bot,
         "source": {"note": "", "sensitive": False, "fields": [], "pleroma": {"discoverable": True, "actor_type": actor_type}},
         "last_status_at": last, "fqn": f"{nick}@{remote_domain or host}",
         "pleroma": {"ap_id": ap_id, "also_known_as": [], "is_confirmed": True, "is_suggested": False, "tags": [],
                     "hide_followers_count": False, "hide_follows_count": False, "hide_followers": False,
                     "hide_follows": False, "hide_favorites": True, "relationship": {}, "skip_thread_containment": False,
                     "background_image": None, "accepts_chat_messages": True if local else None, "favicon": None}}
    if not akkoma:
        a["pleroma"]["scrobbles"] = []
    return a

def emoji(host, code, path):
    u = f"https://{host}/emoji/{path}"
    return {"shortcode": code, "url": u, "static_url": u, "visible_in_picker": False}

def att(host, mime, url, desc, aid=None, w=None, h=None, blurhash=None, preview=None, akkoma_desc_summary=False, type_override=None):
    if aid is None:
        aid = str(_r.randint(-2**31, 2**31 - 1))   # Pleroma: md5(href) as signed 32-bit when AP attachment has no id
    t = type_override or ("image" if "image" in mime else "video" if "video" in mime else "audio" if "audio" in mime else "unknown")
    a = {"id": str(aid), "url": url, "remote_url": url, "preview_url": preview or url, "text_url": url, "type": t,
         "description": desc, "pleroma": {"mime_type": mime}, "blurhash": blurhash}
    if w and h:
        a["meta"] = {"original": {"width": w, "height": h, "aspect": w / h}}
    return a

def tag(host, name):
    return f'<a class="hashtag" data-tag="{name}" href="https://{host}/tag/{name}" rel="tag ugc">#{name}</a>'

def mention(acc):
    return (f'<span class="h-card"><a class="u-url mention" data-user="{acc["id"]}" href="{acc["pleroma"]["ap_id"]}" rel="ugc">'
            f'@<span>{acc["username"]}</span></a></span>')

def status(host, ts, acc, content, plain, media=None, sensitive=False, spoiler="", visibility="public", tags=(), emojis=None,
           mentions=None, reply=None, app=None, faves=0, boosts=0, replies=0, favourited=False, edited=None, local=None,
           akkoma=False, lang=None, source=None):
    sid = flake_id(ts)
    is_local = acc["acct"] == acc["username"] if local is None else local
    if is_local:
        uri = f"https://{host}/objects/{_uuid()}"
        url = f"https://{host}/notice/{sid}"
        context = f"https://{host}/contexts/{_uuid()}"
    else:
        dom = acc["acct"].split("@")[1]
        rid = mastodon_id(ts)
        uri = f"https://{dom}/users/{acc['username']}/statuses/{rid}"
        url = f"https://{dom}/@{acc['username']}/{rid}"
        context = f"tag:{dom},2025-05-10:objectId={_r.randint(10**7, 10**8)}:objectType=Conversation"
    s = {"id": sid, "uri": uri, "url": url, "account": acc,
         "in_reply_to_id": reply[0] if reply else None, "in_reply_to_account_id": reply[1] if reply else None,
         "reblog": None, "card": None, "content": content, "text": None, "created_at": ts, "edited_at": edited,
         "reblogs_count": boosts, "replies_count": replies, "favourites_count": faves, "reblogged": False,
         "favourited": favourited, "bookmarked": False, "muted": False, "pinned": False, "sensitive": sensitive,
         "spoiler_text": spoiler, "visibility": visibility, "media_attachments": media or [], "poll": None,
         "mentions": mentions or [], "tags": [{"name": t, "url": f"https://{host}/tag/{t}"} for t in tags],
         "application": app, "language": lang, "emojis": emojis or []}
    pl = {"local": is_local, "conversation_id": zlib.crc32(context.encode()) & 0x7FFFFFFF, "context": context,
          "in_reply_to_account_acct": reply[2] if reply else None}
    if not akkoma:
        pl.update({"quote": None, "quote_id": None, "quote_url": None, "quote_visible": False})
    pl.update({"content": {"text/plain": plain}, "spoiler_text": {"text/plain": spoiler}, "expires_at": None,
               "direct_conversation_id": None, "thread_muted": False, "emoji_reactions": [],
               "parent_visible": bool(reply) and reply[0] != "_", "pinned_at": None})
    if not akkoma:
        pl["quotes_count"] = 0
    s["pleroma"] = pl
    if akkoma:
        s["quote_id"] = None
        s["quote"] = None
        s["emoji_reactions"] = []
        s["akkoma"] = {"source": source, "in_reply_to_apid": reply[3] if reply and len(reply) > 3 else None, "quote_apid": None}
    return s

def _uuid():
    h = hexname(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"

def boost(host, ts, booster, inner, akkoma=False, mentions=None, lang=None):
    """Announce rendering: Pleroma copies inner content + media; Akkoma copies media but content is ''."""
    s = {"id": flake_id(ts), "uri": inner["uri"], "url": inner["uri"], "account": booster,
         "in_reply_to_id": None, "in_reply_to_account_id": None, "reblog": inner,
         "content": "" if akkoma else inner["content"], "created_at": ts, "reblogs_count": 0, "replies_count": 0,
         "favourites_count": 0, "reblogged": False, "favourited": inner["favourited"], "bookmarked": False, "muted": False,
         "pinned": False, "sensitive": False, "spoiler_text": "", "visibility": "public",
         "media_attachments": inner["media_attachments"], "mentions": mentions or [], "tags": inner["tags"],
         "application": None, "language": lang, "emojis": [], "pleroma": {"local": True, "pinned_at": None}}
    return s

H = "pl.example.net"

def media_local(name):
    return f"https://{H}/media/{_uuid()}/{name}"

def build_public():
    E = [emoji(H, "lantern", "custom/lantern.png"), emoji(H, "hut", "custom/hut.gif")]
    ines = account(H, "ines", f"Inês {PRIDE} :hut:", note=f"walks, huts, {tag(H, 'ferries')}", emojis=[E[1]],
                   avatar=media_local("avatar.png"))
    kaito = account(H, "kaito", f"{JA_HARBOUR} {JP_FLAG} カイト", created="2022-08-01T22:10:05.000Z")
    lev = account(H, "lev", f"{HE_HUT}{ALM} {WAVE_MED}", created="2024-01-09T06:00:00.000Z", last=None)
    plain_name = account(H, "nonamegiven", "nonamegiven", created="2025-01-01T00:00:01.000Z")  # Pleroma falls back to nickname
    mika_r = account(H, "mika", f"Mika {JP_FLAG} {JA_HARBOUR} :lantern:", remote_domain="social.example.org",
                     emojis=[{"shortcode": "lantern", "url": proxied(H, None, "lantern.png"),
                              "static_url": proxied(H, None, "lantern.png"), "visible_in_picker": False}],
                     avatar=proxied(H, None, "avatar.jpeg"), created="2023-04-12T00:00:00.000Z")
    gts_r = account(H, "oskar", f"Oskar {ZALGO_C}", remote_domain="gts.example.com", created="2024-06-30T12:00:00.000Z")
    bot = account(H, "weatherbot", f"Hut weather {KEYCAP1}", bot=True, actor_type="Service", created="2024-02-02T02:02:02.000Z")

    out = []
    # 1 local 1 image (meta + blurhash from upload analysis)
    ts = "2025-05-10T19:50:00.000Z"
    out.append(status(H, ts, ines, f"harbour at dusk, last ferry out {tag(H, 'harbour')}<br/>the lamps came on one by one",
        "harbour at dusk, last ferry out #harbour\nthe lamps came on one by one",
        media=[att(H, "image/jpeg", media_local("dusk.jpg"), "Ferry leaving a lit harbour at dusk.", aid=1873, w=4000, h=3000,
                   blurhash=PALETTE["dusk"])], tags=["harbour"], faves=4,
        app={"name": "Husky Example", "website": "https://client.example.com"}))
    # 2 local 2 images: GIF original (type image, no gifv in Pleroma) + empty description
    ts = "2025-05-10T19:01:00.000Z"
    out.append(status(H, ts, kaito, f"{JA_HUT}。動くストーブ。", f"{JA_HUT}。動くストーブ。",
        media=[att(H, "image/gif", media_local("stove.gif"), "", aid=1871, w=320, h=240, blurhash=None),
               att(H, "image/png", media_local("map.png"), None, aid=1872, w=1200, h=800)]))
    # 3 local 6 images (Pleroma has no 4-attachment cap)
    ts = "2025-05-10T18:30:00.000Z"
    six = [att(H, "image/jpeg", media_local(f"ridge{i}.jpg"), d, aid=1860 + i, w=3000, h=2000, blurhash=PALETTE["hut"])
           for i, d in enumerate(["Ridge, first light.", None, "Ridge, noon.", "", f"Ridge with {FAMILY} walking.", "Ridge, dusk."])]
    out.append(status(H, ts, ines, f"six frames of one ridge {tag(H, 'mountains')}", "six frames of one ridge #mountains",
        media=six, tags=["mountains"]))
    # 4 sensitive without CW (sensitive via #nsfw hashtag rule)
    ts = "2025-05-10T17:00:00.000Z"
    out.append(status(H, ts, lev, f"sauna by the lake {tag(H, 'nsfw')}", "sauna by the lake #nsfw",
        media=[att(H, "image/jpeg", media_local("sauna.jpg"), "Wooden sauna hut by a lake.", aid=1850, w=2000, h=1500)],
        sensitive=True, tags=["nsfw"]))
    # 5 content warning + sensitive
    ts = "2025-05-10T16:00:00.000Z"
    out.append(status(H, ts, kaito, "the drop below the hut path", "the drop below the hut path",
        media=[att(H, "image/jpeg", media_local("drop.jpg"), f"Looking straight down a 300 m cliff. {ALL_HARD}", aid=1849, w=3024, h=4032)],
        sensitive=True, spoiler=f"heights / vertigo {SMILE_TEXT}"))
    # 6 remote (from Mastodon) 4 images through media proxy; remote_url == url == proxied
    ts = "2025-05-10T15:10:00.000Z"
    four = [att(H, "image/jpeg", proxied(H, None, f"{hexname()}.jpeg"), d, w=4000, h=3000,
                blurhash=(PALETTE_U["sea"] if i != 2 else None),
                preview=None) for i, d in enumerate([None, "Gulls.", "Rope coiled on deck.", f"{AR_HARBOUR}"])]
    for a in four:
        a["preview_url"] = a["url"].replace("/proxy/", "/proxy/preview/", 1)
    out.append(status(H, ts, mika_r,
        f'<p>Four from the ferry <a href="https://social.example.org/tags/ferry" class="mention hashtag" rel="tag">#<span>ferry</span></a></p>',
        "Four from the ferry #ferry", media=four, tags=["ferry"], emojis=[], local=False, faves=12, boosts=3))
    # 7 local video, no meta, no blurhash
    ts = "2025-05-10T14:00:00.000Z"
    out.append(status(H, ts, ines, "kettle on the stove (video)", "kettle on the stove (video)",
        media=[att(H, "video/mp4", media_local("kettle.mp4"), "Kettle starting to steam.", aid=1840)]))
    # 8 local audio only
    ts = "2025-05-10T13:00:00.000Z"
    out.append(status(H, ts, lev, "wind on the ridge, 2 minutes", "wind on the ridge, 2 minutes",
        media=[att(H, "audio/ogg", media_local("wind.ogg"), None, aid=1839)]))
    # 9 unknown only (pdf): Pleroma still gives url/preview_url (same href)
    ts = "2025-05-10T12:00:00.000Z"
    out.append(status(H, ts, bot, f"Hut weather sheet for tomorrow {KEYCAP1}", f"Hut weather sheet for tomorrow {KEYCAP1}",
        media=[att(H, "application/pdf", media_local("forecast.pdf"), "Forecast table.", aid=1838)]))
    # 10 remote from GoToSocial (image + video mix), remote without meta for the video
    ts = "2025-05-10T11:00:00.000Z"
    out.append(status(H, ts, gts_r, "<p>Boat shed, photo and clip.</p>", "Boat shed, photo and clip.",
        media=[att(H, "image/jpeg", proxied(H, None, "01JTVZ7E5X0G8Q2R3S4T5V6W7X.jpeg"), "Red boat shed.", w=2048, h=1536,
                   blurhash=PALETTE["rock"]),
               att(H, "video/mp4", proxied(H, None, "01JTVZ7F00000000000000000A.mp4"), None)], local=False))
    # 11 visibility "local" (Pleroma-only value), text only, custom emoji, hard text
    ts = "2025-05-10T10:00:00.000Z"
    out.append(status(H, ts, plain_name,
        f"local-only note :lantern: :hut:<br/>{E_DECOMP}t{E_DECOMP} / {FA_ZWNJ} / {SCOTLAND} {LANG_TAG_JA}",
        f"local-only note :lantern: :hut:\n{E_DECOMP}t{E_DECOMP} / {FA_ZWNJ} / {SCOTLAND} {LANG_TAG_JA}",
        visibility="local", emojis=E))
    # 12 reply with mention
    ts = "2025-05-10T09:00:00.000Z"
    parent = flake_id("2025-05-10T08:55:00.000Z")
    out.append(status(H, ts, kaito, f"{mention(ines)} 素敵な写真！ {ALL_HARD}", f"@ines 素敵な写真！ {ALL_HARD}",
        mentions=[{"id": ines["id"], "acct": "ines", "username": "ines", "url": ines["url"]}],
        reply=(parent, ines["id"], "ines"), edited="2025-05-10T09:03:00.000Z"))
    return out

def build_home():
    inner_acc = account(H, "mika", "Mika", remote_domain="social.example.org", created="2023-04-12T00:00:00.000Z",
                        avatar=proxied(H, None, "avatar.jpeg"))
    me = account(H, "ines", f"Inês {PRIDE}")
    other = account(H, "lev", f"{HE_HUT}{ALM}")
    out = []
    # boost of a 4-image remote status: outer copies content AND media
    imgs = [att(H, "image/jpeg", proxied(H, None, f"{hexname()}.jpeg"), d, w=4000, h=3000, blurhash=PALETTE["hut"])
            for d in ["Deck.", "Wake.", None, "Harbour wall."]]
    inner = status(H, "2025-05-09T21:10:00.000Z", inner_acc, "<p>Four frames from the ferry deck.</p>", "Four frames from the ferry deck.",
                   media=imgs, local=False, faves=31, boosts=9)
    mention_author = [{"id": inner_acc["id"], "acct": inner_acc["acct"], "username": "mika", "url": inner_acc["url"]}]
    out.append(boost(H, "2025-05-10T11:02:00.000Z", me, inner, mentions=mention_author))
    # boost of a CW'd sensitive status: outer sensitive=false, spoiler='' but content copied
    inner2 = status(H, "2025-05-10T08:00:00.000Z", other, "cold plunge, after", "cold plunge, after",
                    media=[att(H, "image/jpeg", media_local("plunge.jpg"), "Person in an icy lake.", aid=1801, w=1500, h=2000)],
                    sensitive=True, spoiler="nudity (partial)")
    out.append(boost(H, "2025-05-10T12:30:00.000Z", me, inner2))
    out.append(status(H, "2025-05-10T12:45:00.000Z", other, "plain post, no media", "plain post, no media"))
    return out

AH = "ak.example.net"
def build_akkoma():
    ann = account(AH, "annika", f"Annika {WAVE_MED}", akkoma=True)
    rem = account(AH, "mika", "Mika", remote_domain="social.example.org", akkoma=True, created="2023-04-12T00:00:00.000Z")
    out = []
    imgs = [att(AH, "image/jpeg", f"https://{AH}/media/{_uuid()}.jpg", d, w=3000, h=2000) for d in ["Hut door.", None]]
    inner = status(AH, "2025-05-09T20:00:00.000Z", rem, "<p>Two doors.</p>", "Two doors.", media=imgs, local=False, akkoma=True,
                   lang="en", source=None)
    out.append(boost(AH, "2025-05-10T07:00:00.000Z", ann, inner, akkoma=True, lang="en"))
    # reply to a post the server could not resolve: in_reply_to_id == "_" (ghost id); emoji_reactions; akkoma.source
    st = status(AH, "2025-05-10T07:30:00.000Z", ann, "<p>agreed, the <strong>north</strong> hut is better</p>",
                "agreed, the north hut is better", reply=("_", "_", None, "https://far.example.net/notes/9x8y7z"), akkoma=True,
                lang="en", source={"content": "agreed, the **north** hut is better", "mediaType": "text/markdown"})
    st["emoji_reactions"] = [{"name": "\u26f0\ufe0f", "count": 2, "url": None, "me": False, "account_ids": [rem["id"], flake_id("2024-01-01T00:00:00.000Z")]}]
    st["pleroma"]["emoji_reactions"] = st["emoji_reactions"]
    out.append(st)
    # attachment without mediaType: type from AP 'type', mime_type application/octet-stream; description from 'summary'
    st2 = status(AH, "2025-05-10T08:10:00.000Z", rem, "<p>map scan</p>", "map scan",
                 media=[att(AH, "application/octet-stream", f"https://{AH}/proxy/{b64ish(27)}/{b64ish(40)}/scan", "Scanned paper map.",
                            type_override="image")], local=False, akkoma=True, lang=None, source=None)
    out.append(st2)
    return out
