"""ID helpers for the fixture generator (our own implementations of each server's ID scheme)."""
import datetime, random

def ms(ts):
    d = datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return int(d.timestamp() * 1000)

_r = random.Random(4545)

def mastodon_id(ts):
    # Mastodon snowflake: milliseconds << 16 | 16 low bits
    return str((ms(ts) << 16) | _r.getrandbits(16))

B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
def flake_id(ts):
    # Pleroma/Akkoma FlakeId: 64-bit ms | 48-bit worker | 16-bit seq, base62
    v = (ms(ts) << 64) | (0x5EED0045A1B2 << 16) | _r.getrandbits(16)
    s = ""
    while v:
        v, d = divmod(v, 62)
        s = B62[d] + s
    return s

CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
def ulid(ts):
    v = (ms(ts) << 80) | _r.getrandbits(80)
    s = ""
    for _ in range(26):
        v, d = divmod(v, 32)
        s = CROCK[d] + s
    return s

def pixelfed_id(ts):
    # Pixelfed SnowflakeService: (ms - 1549756800000) << 22 | r<<17 | r<<12 | seq
    return str(((ms(ts) - 1549756800000) << 22) | (_r.randint(1, 31) << 17) | (_r.randint(1, 31) << 12) | _r.randint(0, 4094))

def hexname(n=16):
    return "".join(_r.choice("0123456789abcdef") for _ in range(n))

def b64ish(n=22):
    return "".join(_r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(n))

def id_path(i):
    s = str(i)
    s = s.zfill(((len(s) + 2) // 3) * 3)
    return "/".join(s[k:k + 3] for k in range(0, len(s), 3))
